package servertest_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// Every line a pass logs names the cluster resource once: controller-
// runtime's logger for a reconcile already carries its kind, namespace and
// name, and the reconciler adds no second copy.
func TestPassLogLinesNameTheResourceOnce(t *testing.T) {
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
	startOperatorWith(t, cp.RESTConfig(), ns, baseConfig(), log)

	cr := newCluster(ns, "logged", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, client.ObjectKeyFromObject(cr), commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)

	mu.Lock()
	defer mu.Unlock()
	passLines := 0
	for _, l := range lines {
		if !strings.Contains(l, `"reconcileID"`) {
			continue
		}
		passLines++
		if n := strings.Count(l, `"SampleCluster"=`); n != 1 {
			t.Errorf("a pass's log line names the resource %d times: %s", n, l)
		}
	}
	if passLines == 0 {
		t.Fatalf("no log line of a pass among %d lines", len(lines))
	}
}
