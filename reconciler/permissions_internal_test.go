package reconciler

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/reconciler/rbac"
)

func rule(group string, resources []string, verbs ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{group}, Resources: resources, Verbs: verbs}
}

// The rules follow the configuration: the fixed slots and the resource
// always; the RBAC kinds with WorkloadRBAC; extra kinds; patch on the
// group's ConfigMap and StatefulSet with a retirement grace period.
func TestPermissionsFollowTheConfiguration(t *testing.T) {
	scheme := runtime.NewScheme()
	gv := schema.GroupVersion{Group: "sample.opkit.dev", Version: "v1alpha1"}
	scheme.AddKnownTypeWithName(gv.WithKind("SampleCluster"), &testCluster{})
	base := func() Config[*testCluster] {
		return Config[*testCluster]{Name: "sample.opkit.dev", For: &testCluster{}, Roles: StaticRoles[*testCluster](Catalog{})}
	}
	common := []rbacv1.PolicyRule{
		rule("", []string{"configmaps", "services"}, "create", "delete", "get", "list", "update", "watch"),
		rule("", []string{"events"}, "list"),
		rule("", []string{"persistentvolumeclaims"}, "delete", "list", "watch"),
		rule("", []string{"pods", "secrets"}, "list", "watch"),
		rule("", []string{"serviceaccounts"}, "create", "get", "list", "update", "watch"),
		rule("apps", []string{"statefulsets"}, "create", "delete", "get", "list", "update", "watch"),
		rule("events.k8s.io", []string{"events"}, "create", "patch"),
		rule("policy", []string{"poddisruptionbudgets"}, "create", "delete", "get", "list", "update", "watch"),
		rule("sample.opkit.dev", []string{"sampleclusters"}, "get", "list", "watch"),
		rule("sample.opkit.dev", []string{"sampleclusters/finalizers", "sampleclusters/status"}, "update"),
	}
	tests := []struct {
		name   string
		change func(*Config[*testCluster])
		want   []rbacv1.PolicyRule
	}{
		{"defaults", func(*Config[*testCluster]) {}, common},
		{"workload RBAC and an extra kind", func(c *Config[*testCluster]) {
			c.WorkloadRBAC = func(*testCluster) []rbacv1.PolicyRule { return nil }
			c.ExtraKinds = []schema.GroupVersionKind{{Group: "listeners.opkit.dev", Version: "v1alpha1", Kind: "Listener"}}
		}, nil},
		{"a grace period", func(c *Config[*testCluster]) { c.Orphan.GracePeriod = time.Hour }, nil},
	}
	// The expected rules of the last two cases, spelled out from common's.
	tests[1].want = []rbacv1.PolicyRule{
		common[0], common[1], common[2], common[3], common[4], common[5], common[6],
		rule("listeners.opkit.dev", []string{"listeners"}, "create", "delete", "get", "list", "update", "watch"),
		common[7],
		rule("rbac.authorization.k8s.io", []string{"rolebindings", "roles"}, "create", "delete", "get", "list", "update", "watch"),
		common[8], common[9],
	}
	tests[2].want = []rbacv1.PolicyRule{
		rule("", []string{"configmaps"}, "create", "delete", "get", "list", "patch", "update", "watch"),
		common[1], common[2], common[3], common[4],
		rule("", []string{"services"}, "create", "delete", "get", "list", "update", "watch"),
		rule("apps", []string{"statefulsets"}, "create", "delete", "get", "list", "patch", "update", "watch"),
		common[6], common[7], common[8], common[9],
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base()
			tt.change(&cfg)
			r, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Permissions(scheme, rbac.Resolver{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rbac.Permissions{Namespaced: tt.want}, p); diff != "" {
				t.Errorf("permissions (-want +got):\n%s", diff)
			}
		})
	}
}
