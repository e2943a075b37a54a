package servertest_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// Every line a pass logs names the component once: controller-runtime's
// logger for a reconcile already carries its kind, namespace and name, and
// the reconciler adds no second copy.
func TestPassLogLinesNameTheComponentOnce(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	var (
		mu    sync.Mutex
		lines []string
	)
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, args)
	}, funcr.Options{Verbosity: 1})
	startOperator(t, cp, ns, setup{logger: &log})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "front"}, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)

	mu.Lock()
	defer mu.Unlock()
	passLines := 0
	for _, l := range lines {
		if !strings.Contains(l, `"reconcileID"`) {
			continue
		}
		passLines++
		if n := strings.Count(l, `"Shop"=`); n != 1 {
			t.Errorf("a pass's log line names the component %d times: %s", n, l)
		}
	}
	if passLines == 0 {
		t.Fatalf("no log line of a pass among %d lines", len(lines))
	}
}
