package rbac_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// Rules are merged by group and verbs, whatever order they were added in,
// and come out sorted.
func TestSetMergesAndSorts(t *testing.T) {
	var a, b rbac.Set
	a.Add(true, "apps", []string{"statefulsets"}, rbac.Get, rbac.List)
	a.Add(true, "", []string{"configmaps"}, rbac.Watch, rbac.Get, rbac.List)
	a.Add(true, "apps", []string{"statefulsets"}, rbac.Watch)
	a.Add(false, "", []string{"namespaces"}, rbac.Create)
	a.Add(true, "", []string{"services"}, rbac.List, rbac.Get, rbac.Watch)
	b.Add(true, "", []string{"services"}, rbac.Watch)
	b.Add(false, "", []string{"namespaces"}, rbac.Create)
	b.Add(true, "", []string{"configmaps"}, rbac.List, rbac.Get, rbac.Watch)
	b.Add(true, "apps", []string{"statefulsets"}, rbac.List, rbac.Watch, rbac.Get)
	b.Add(true, "", []string{"services"}, rbac.Get, rbac.List)
	want := rbac.Permissions{
		Namespaced: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"configmaps", "services"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"get", "list", "watch"}},
		},
		Cluster: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"create"}}},
	}
	for name, s := range map[string]*rbac.Set{"a": &a, "b": &b} {
		if diff := cmp.Diff(want, s.Permissions()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff(want, rbac.Merge(a.Permissions(), b.Permissions())); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
}

// Without a mapper the kinds Kubernetes serves itself have their scope,
// other kinds are namespaced under their plural; a mapper decides when set.
func TestResolver(t *testing.T) {
	tests := []struct {
		gvk        schema.GroupVersionKind
		resource   string
		namespaced bool
	}{
		{schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "configmaps", true},
		{schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}, "poddisruptionbudgets", true},
		{schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "namespaces", false},
		{schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, "clusterroles", false},
		{schema.GroupVersionKind{Group: "kafka.example.com", Version: "v1", Kind: "KafkaCluster"}, "kafkaclusters", true},
	}
	for _, tt := range tests {
		res, ns, err := rbac.Resolver{}.Resource(tt.gvk)
		if err != nil || res != tt.resource || ns != tt.namespaced {
			t.Errorf("%s: %s namespaced=%v (%v), want %s namespaced=%v", tt.gvk, res, ns, err, tt.resource, tt.namespaced)
		}
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	web := schema.GroupVersionKind{Group: "web.example.com", Version: "v1", Kind: "Website"}
	mapper.Add(web, meta.RESTScopeRoot)
	if res, ns, err := (rbac.Resolver{Mapper: mapper}).Resource(web); err != nil || res != "websites" || ns {
		t.Errorf("from the mapper: %s namespaced=%v (%v), want websites, cluster-scoped", res, ns, err)
	}
}

// A cluster-wide operator gets one ClusterRole; one restricted to
// namespaces a Role per namespace and a ClusterRole for the cluster-scoped
// rules alone; leader election and a sharding member each a Role in the
// operator's namespace.
func TestManifests(t *testing.T) {
	var s rbac.Set
	s.Add(true, "", []string{"configmaps"}, rbac.Get)
	s.Add(false, "", []string{"namespaces"}, rbac.Create)
	p := s.Permissions()
	names := func(objs []client.Object) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.GetObjectKind().GroupVersionKind().Kind+" "+client.ObjectKeyFromObject(o).String())
		}
		return out
	}
	all, err := rbac.Manifests(p, rbac.ManifestOptions{Name: "shop", ServiceAccount: "shop", Namespace: "shop-system", LeaderElection: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{
		"ClusterRole /shop", "ClusterRoleBinding /shop",
		"Role shop-system/shop-leader-election", "RoleBinding shop-system/shop-leader-election",
	}, names(all)); diff != "" {
		t.Errorf("cluster-wide (-want +got):\n%s", diff)
	}
	if got := all[0].(*rbacv1.ClusterRole).Rules; len(got) != 2 {
		t.Errorf("the ClusterRole of a cluster-wide operator holds %d rules, want both", len(got))
	}
	restricted, err := rbac.Manifests(p, rbac.ManifestOptions{Name: "shop", ServiceAccount: "shop", Namespace: "shop-system", Namespaces: []string{"b", "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{
		"ClusterRole /shop", "ClusterRoleBinding /shop",
		"Role a/shop", "RoleBinding a/shop", "Role b/shop", "RoleBinding b/shop",
	}, names(restricted)); diff != "" {
		t.Errorf("restricted (-want +got):\n%s", diff)
	}
	if got := restricted[0].(*rbacv1.ClusterRole).Rules; len(got) != 1 || got[0].Resources[0] != "namespaces" {
		t.Errorf("the ClusterRole of a restricted operator holds %v, want the namespaces rule alone", got)
	}
	sharded, err := rbac.Manifests(p, rbac.ManifestOptions{Name: "shop", ServiceAccount: "shop", Namespace: "shop-system", Sharding: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{
		"ClusterRole /shop", "ClusterRoleBinding /shop",
		"Role shop-system/shop-shard", "RoleBinding shop-system/shop-shard",
	}, names(sharded)); diff != "" {
		t.Errorf("sharded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rbac.ShardRules(), sharded[2].(*rbacv1.Role).Rules); diff != "" {
		t.Errorf("the shard Role (-want +got):\n%s", diff)
	}
	if _, err := rbac.Manifests(p, rbac.ManifestOptions{Name: "Shop!"}); err == nil {
		t.Error("bad options accepted")
	}
}
