package servertest_test

import (
	"context"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// A product handler that panics costs a pass, not the operator: the panic
// becomes a ReconcilePanic event and the next passes still run (here they
// heal once the handler stops panicking).
func TestPanicBecomesAnEvent(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	hooks := reconciler.NewHooks[*sampleCluster]()
	if err := hooks.AddRoleGroup(reconciler.RoleGroupHook[*sampleCluster]{
		Name: "fragile",
		PreReconcile: func(_ context.Context, cr *sampleCluster, _ *reconciler.BuildContext) error {
			if cr.Spec.Note == "explode" {
				panic("handler bug: nil map")
			}
			return nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	cfg.Hooks = hooks
	startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "fragile", map[string]map[string]int32{"server": {"default": 1}})
	cr.Spec.Note = "explode"
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, cp.Client, ns, "fragile", reconciler.ReasonReconcilePanic, "nil map")
	key := client.ObjectKeyFromObject(cr)
	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) { c.Spec.Note = "" }); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
}
