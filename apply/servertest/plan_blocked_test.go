package servertest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

// What the pass would not change is said, with its cause: another owner's
// object, a field that cannot change, a policy. An object created once
// and never updated is no change, though its reason says it differs.
func TestPlanSaysWhatIsBlockedAndWhy(t *testing.T) {
	f := newPlanFixture(t, apply.Options{MissingNamespacesPolicy: apply.MissingNamespacesPolicyDoNotCreate})
	once := map[string]string{key(apply.AnnotationReconcilePolicy): string(apply.ReconcilePolicyOnce)}
	f.applyUntilReady(statefulSet(f.ns, "db", ""), configMap(f.ns, "seed", map[string]string{"k": "1"}, once))
	foreign := configMap(f.ns, "theirs", map[string]string{"k": "1"}, map[string]string{key(apply.AnnotationOwnerID): "someone-else"})
	require.NoError(t, f.c.Create(t.Context(), foreign))

	moved := statefulSet(f.ns, "db", "")
	moved.Spec.ServiceName = "elsewhere"
	plan := f.plan(moved, configMap(f.ns, "seed", map[string]string{"k": "2"}, once), configMap(f.ns, "theirs", map[string]string{"k": "2"}, nil),
		configMap("missing-"+f.ns, "elsewhere", nil, nil))
	type outcome struct {
		Action apply.PlanAction
		Cause  apply.BlockCause
	}
	got := map[string]outcome{}
	for k, c := range byName(plan) {
		require.NotEmpty(t, c.Reason, k)
		got[k] = outcome{c.Action, c.Cause}
	}
	want := map[string]outcome{
		"StatefulSet db":      {apply.PlanBlocked, apply.BlockImmutableField},
		"ConfigMap theirs":    {apply.PlanBlocked, apply.BlockForeignOwner},
		"ConfigMap elsewhere": {apply.PlanBlocked, apply.BlockPolicy},
		"ConfigMap seed":      {Action: apply.PlanUnchanged},
	}
	require.Empty(t, cmp.Diff(want, got))
	require.Equal(t, []string{"spec.serviceName"}, byName(plan)["StatefulSet db"].IgnoredFields)
	require.Contains(t, byName(plan)["ConfigMap seed"].Reason, "differs")
}

// A dry run the API server refuses fails the plan with an error naming
// the verb and the object, and the API error stays visible.
func TestPlanRefusedDryRunNamesTheVerb(t *testing.T) {
	f := newPlanFixture(t, apply.Options{})
	f.applyUntilReady(configMap(f.ns, "a", map[string]string{"k": "1"}, nil))
	user := "reader-" + f.ns
	for _, o := range []client.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "reader"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch"}}}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "reader"},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "reader"},
			Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}}},
	} {
		require.NoError(t, f.c.Create(t.Context(), o))
	}
	cfg := rest.CopyConfig(env.Require(t).Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user}
	c, err := client.New(cfg, client.Options{Scheme: f.c.Scheme()})
	require.NoError(t, err)
	r, err := apply.New(name, c, apply.Options{})
	require.NoError(t, err)

	plan, err := r.Plan(t.Context(), &f.inv, []client.Object{configMap(f.ns, "a", map[string]string{"k": "2"}, nil)}, f.pass())
	require.Error(t, err)
	var refused *apply.DryRunError
	require.True(t, errors.As(err, &refused), "%v", err)
	require.Equal(t, "update", refused.Verb)
	require.Equal(t, "a", refused.Object.Name)
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	require.Equal(t, err.Error(), plan.Err().Error())
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "a"}, live))
	require.Equal(t, "1", live.Data["k"])
}
