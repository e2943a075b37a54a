package reconciler

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/event"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// The reconciler's own status writes bring no pass; a change of what a
// pass reads, a lost inventory and the update a stale pass waits for do.
func TestClusterChanged(t *testing.T) {
	base := func() *testCluster {
		c := &testCluster{}
		c.Name, c.Namespace, c.UID, c.Generation, c.ResourceVersion = "c", "ns", "u1", 2, "10"
		c.Labels = map[string]string{"team": "a"}
		st := c.GetClusterStatus()
		st.ObservedGeneration = 2
		st.RoleGroups = []commonsv1alpha1.RoleGroupStatus{{
			RoleGroupRef: commonsv1alpha1.RoleGroupRef{Role: "server", Group: "a"},
			Objects:      inventory.Inventory{Items: []inventory.Item{{Version: "v1", Kind: "ConfigMap", Name: "x"}}},
		}}
		return c
	}
	for _, tc := range []struct {
		name   string
		change func(c *testCluster)
		stale  bool
		want   bool
	}{
		{"a status write of the reconciler", func(c *testCluster) {
			c.ResourceVersion = "11"
			c.GetClusterStatus().Conditions = []metav1.Condition{{Type: "Available", Status: metav1.ConditionTrue}}
		}, false, false},
		{"the spec", func(c *testCluster) { c.Generation = 3 }, false, true},
		{"a label", func(c *testCluster) { c.Labels = nil }, false, true},
		{"an annotation", func(c *testCluster) { c.Annotations = map[string]string{"a": "b"} }, false, true},
		{"a finalizer", func(c *testCluster) { c.Finalizers = []string{"x"} }, false, true},
		{"the deletion", func(c *testCluster) { c.DeletionTimestamp = &metav1.Time{} }, false, true},
		{"the inventory wiped", func(c *testCluster) { c.ResourceVersion = "11"; c.GetClusterStatus().RoleGroups = nil }, false, true},
		{"the status write a stale pass waits for", func(c *testCluster) { c.ResourceVersion = "11" }, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Reconciler[*testCluster]{}
			old, cur := base(), base()
			tc.change(cur)
			if tc.stale {
				key := types.NamespacedName{Namespace: "ns", Name: "c"}
				r.fresh.Wrote(key, "u1", "10")
				if !r.fresh.Stale(key, "u1", "10") {
					t.Fatal("the replaced version is not stale")
				}
			}
			if got := r.clusterChanged().Update(event.UpdateEvent{ObjectOld: old, ObjectNew: cur}); got != tc.want {
				t.Errorf("update passes = %t, want %t", got, tc.want)
			}
		})
	}
}
