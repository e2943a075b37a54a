package servertest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/apply"
)

// Whatever the update policy, the plan of a changed Deployment names the
// write the pass then makes and the fields it changes, defaults of the
// API server included.
func TestPlanFollowsEveryUpdatePolicy(t *testing.T) {
	tests := []struct {
		policy     apply.UpdatePolicy
		action     apply.PlanAction
		realWrites []string
	}{
		{apply.UpdatePolicyReplace, apply.PlanUpdate, []string{"update"}},
		{apply.UpdatePolicySSAMerge, apply.PlanUpdate, []string{"patch"}},
		{apply.UpdatePolicySSAOverride, apply.PlanUpdate, []string{"patch", "patch"}}, // field ownership moved first
		{apply.UpdatePolicyRecreate, apply.PlanRecreate, []string{"delete", "create"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.policy), func(t *testing.T) {
			f := newPlanFixture(t, apply.Options{})
			policy := map[string]string{key(apply.AnnotationUpdatePolicy): string(tt.policy)}
			f.applyUntilReady(deployment(f.ns, "web", policy))
			next := deployment(f.ns, "web", policy)
			next.Spec.Template.Spec.Containers[0].Image = "example.com/app:2"
			c := byName(f.plan(next))["Deployment web"]
			require.Equal(t, tt.action, c.Action, c.Reason)
			require.NoError(t, c.Err)

			f.writes.Reset()
			f.applyUntilReady(next)
			require.Empty(t, cmp.Diff(map[string][]string{"deployments web": tt.realWrites}, f.realWrites()))
			written := apply.DiffFields(c.Live, f.body("deployments", "web"))
			require.Empty(t, cmp.Diff(written, c.Fields), "fields (-written +planned)")
		})
	}
}
