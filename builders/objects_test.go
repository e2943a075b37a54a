package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func TestPodDisruptionBudget(t *testing.T) {
	group := testScope()
	role := group.RoleScope()
	roleLabels := role.Labels()
	roleLabels[commonsv1alpha1.LabelRolePodDisruptionBudget] = "server"
	groupLabels := group.Labels()
	groupLabels[commonsv1alpha1.LabelRoleGroupPodDisruptionBudget] = "default"
	pdb := func(name string, labels map[string]string, selector map[string]string, n int32) *policyv1.PodDisruptionBudget {
		mu := intstr.FromInt32(n)
		return &policyv1.PodDisruptionBudget{
			TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: labels},
			Spec: policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &mu,
				Selector: &metav1.LabelSelector{MatchLabels: selector}},
		}
	}
	tests := []struct {
		name    string
		scope   Scope
		spec    *commonsv1alpha1.PodDisruptionBudgetSpec
		enabled bool
		want    *policyv1.PodDisruptionBudget
	}{
		{name: "role, unset spec: enabled with 1", scope: role, enabled: true,
			want: pdb("prod-server", roleLabels, role.SelectorLabels(), 1)},
		{name: "enabled unset, max 3", scope: role, spec: &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](3)},
			enabled: true, want: pdb("prod-server", roleLabels, role.SelectorLabels(), 3)},
		{name: "disabled: still built, so a caller can name what to remove", scope: role,
			spec: &commonsv1alpha1.PodDisruptionBudgetSpec{Enabled: ptr.To(false)},
			want: pdb("prod-server", roleLabels, role.SelectorLabels(), 1)},
		{name: "role group", scope: group, spec: &commonsv1alpha1.PodDisruptionBudgetSpec{Enabled: ptr.To(true)},
			enabled: true, want: pdb("prod-server-default", groupLabels, group.SelectorLabels(), 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewPodDisruptionBudget(tt.scope, tt.spec)
			require.Equal(t, tt.enabled, b.Enabled())
			got, err := b.Build()
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PodDisruptionBudget (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodDisruptionBudgetNegativeNamesItsAuthor(t *testing.T) {
	negative := &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](-1)}
	tests := []struct {
		name   string
		scope  Scope
		author failure.Author
		want   string
	}{
		{"role: the user's roleConfig", testScope().RoleScope(), failure.AuthorUser,
			"spec.roles.server.roleConfig.podDisruptionBudget.maxUnavailable: -1 is negative"},
		{"role group: the product's extra", testScope(), failure.AuthorOperator,
			"roles[server].podDisruptionBudget.maxUnavailable: -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPodDisruptionBudget(tt.scope, negative).Build()
			if diff := cmp.Diff([]string{tt.want}, messages(t, err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			require.Equal(t, tt.author, failure.AuthorOf(err))
		})
	}
}

func TestRBAC(t *testing.T) {
	scope := Scope{Namespace: "ns", Cluster: "prod"}
	labels := map[string]string{"app.kubernetes.io/instance": "prod", "app.kubernetes.io/managed-by": "opkit"}
	meta := metav1.ObjectMeta{Name: "zookeepercluster-prod", Namespace: "ns", Labels: labels}
	rules := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}

	if diff := cmp.Diff(&corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"}, ObjectMeta: meta},
		ServiceAccount(scope, "zookeepercluster-prod")); diff != "" {
		t.Errorf("ServiceAccount (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: meta, Rules: rules}, Role(scope, "zookeepercluster-prod", rules)); diff != "" {
		t.Errorf("Role (-want +got):\n%s", diff)
	}
	want := &rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: meta,
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "zookeepercluster-prod"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "zookeepercluster-prod", Namespace: "ns"}}}
	if diff := cmp.Diff(want, RoleBinding(scope, "zookeepercluster-prod")); diff != "" {
		t.Errorf("RoleBinding (-want +got):\n%s", diff)
	}
}
