package servertest_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// checkRole reads config/rbac/role.yaml, which the project derives from
// its reconciler's configuration: a ClusterRole granting the resource's
// verbs, its status and finalizers, and the applied kind's verbs.
func checkRole(t *testing.T, dir string, p project) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config", "rbac", "role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(b, role); err != nil {
		t.Fatal(err)
	}
	if role.Kind != "ClusterRole" || role.Name != "manager-role" {
		t.Errorf("role.yaml holds %s %s, want ClusterRole manager-role", role.Kind, role.Name)
	}
	want := []rbacv1.PolicyRule{
		{APIGroups: []string{p.options.Group}, Resources: []string{p.plural}, Verbs: p.ownVerbs},
		{APIGroups: []string{p.options.Group}, Resources: []string{p.plural + "/finalizers", p.plural + "/status"}, Verbs: []string{"update"}},
	}
	var own []rbacv1.PolicyRule
	for _, r := range role.Rules {
		if slices.Contains(r.APIGroups, p.options.Group) {
			own = append(own, r)
		}
	}
	if diff := cmp.Diff(want, own); diff != "" {
		t.Errorf("role.yaml's rules on %s (-want +got):\n%s", p.plural, diff)
	}
	i := slices.IndexFunc(role.Rules, func(r rbacv1.PolicyRule) bool {
		return slices.Equal(r.APIGroups, p.applied.APIGroups) && slices.Contains(r.Resources, p.applied.Resources[0])
	})
	if i < 0 {
		t.Fatalf("role.yaml grants nothing on %s:\n%s", p.applied.Resources[0], b)
	}
	if diff := cmp.Diff(p.applied.Verbs, role.Rules[i].Verbs); diff != "" {
		t.Errorf("role.yaml's verbs on %s (-want +got):\n%s", p.applied.Resources[0], diff)
	}
}
