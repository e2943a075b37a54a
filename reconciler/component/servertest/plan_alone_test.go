package servertest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A component reconciler set up for planning alone, in a manager of its
// own (as a command-line client builds with its user's kubeconfig), plans
// what the operator's next pass does and writes nothing at all: it runs
// no controller.
func TestShopPlanningAloneWritesNothing(t *testing.T) {
	f := newShopPlanProof(t, shop.ShopSpec{Message: "welcome", Replicas: 1})
	writes := apicount.NewWriteLog()
	rc := env.Require(t).RESTConfig()
	rc.Wrap(writes.WrapTransport)
	r, err := component.New[*shop.Shop](f.op.name, shopGenerator(t), component.Options{Kinds: shopKinds, Namespaces: []string{f.key.Namespace}})
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(rc, ctrl.Options{Scheme: testScheme(), Cache: cacheOpts, Client: clientOpts,
		Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0", Logger: testkit.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupForPlanning(mgr); err != nil {
		t.Fatal(err)
	}
	// Plan reads through the cache, which starts with the manager: asked
	// before the start, it waits for the cache to sync, as long as its
	// context lets it.
	short, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := r.Plan(short, f.live()); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cache") {
		t.Fatalf("a plan on a manager never started returned %v, not the cache's wait ending with the context", err)
	}
	type answer struct {
		plan component.Plan
		err  error
	}
	first, live := make(chan answer, 1), f.live()
	go func() {
		plan, err := r.Plan(t.Context(), live)
		first <- answer{plan, err}
	}()
	testkit.RunManager(t, mgr)
	a := <-first
	converged, err := a.plan, a.err
	if err != nil || converged.HasChanges() {
		t.Fatalf("the converged shop plans changes (%v): %v", err, f.planned(converged))
	}
	desired := f.live()
	desired.Spec.Replicas = 2
	plan, err := r.Plan(t.Context(), desired)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"configmaps front-settings": {"update"}, "configmaps front-upgraded": {"create"}, "deployments front-web": {"update"}}
	if diff := gocmp.Diff(want, f.planned(plan)); diff != "" {
		t.Errorf("planned writes (-want +got):\n%s", diff)
	}
	for _, w := range writes.Writes() {
		if w.DryRun != "All" {
			t.Errorf("the planner sent a real %s of %s %s", w.Verb, w.Resource, w.Name)
		}
	}
}
