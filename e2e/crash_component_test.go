package e2e_test

import (
	"context"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// A component's cold converge (finalizer, objects in two waves, status),
// killed after any of its writes, converges after a restart to the
// uninterrupted run's end state, with every object in its inventory.
func TestComponentCrashAtEveryWrite(t *testing.T) {
	cp := env.Require(t)
	crashScenario{
		operator: func(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error {
			return componentOperator(t, ns)
		},
		prepare: func(t *testing.T, cp *controlplane.ControlPlane, ns string) {
			releaseBundles(t, cp.Client, ns)
			if err := cp.Client.Create(t.Context(), newBundle(ns, bundleName(0), bundleConfigMaps)); err != nil {
				t.Fatal(err)
			}
		},
		done: func(c client.Client, ns string) testkit.Condition[string] {
			return bundlesJudged(c, ns, 1, bundleReady)
		},
		capture:  componentCapturer,
		problems: componentInventoryProblems,
	}.everyWrite(t, cp)
}
