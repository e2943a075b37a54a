package reconciler

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// A change of progress alone (a message counting replicas, an object
// found ready) may wait; anything a later pass or a user relies on may
// not.
func TestProgressOnly(t *testing.T) {
	base := func() *testCluster {
		c := &testCluster{}
		c.Generation = 2
		st := c.GetClusterStatus()
		st.ObservedGeneration = 2
		st.Conditions = []metav1.Condition{
			{Type: commonsv1alpha1.ConditionAvailable, Status: metav1.ConditionFalse, Reason: "Progressing", Message: "server/a: 0 of 3 replicas ready", ObservedGeneration: 2},
			{Type: commonsv1alpha1.ConditionProgressing, Status: metav1.ConditionTrue, Reason: "Progressing", Message: "server/a: 0 of 3 replicas ready", ObservedGeneration: 2},
			{Type: commonsv1alpha1.ConditionReconcileComplete, Status: metav1.ConditionTrue, Reason: "Done", Message: "applied", ObservedGeneration: 2},
		}
		st.RoleGroups = []commonsv1alpha1.RoleGroupStatus{{
			RoleGroupRef: commonsv1alpha1.RoleGroupRef{Role: "server", Group: "a"},
			Objects: inventory.Inventory{Items: []inventory.Item{
				{Group: "apps", Version: "v1", Kind: "StatefulSet", Name: "x", Digest: "d1", Phase: inventory.PhaseCreating, Status: "InProgress", Generation: 1},
			}},
		}}
		return c
	}
	for _, tc := range []struct {
		name   string
		change func(c *testCluster)
		want   bool
	}{
		{"nothing", func(*testCluster) {}, true},
		{"replicas counted in Available's message", func(c *testCluster) {
			c.Status.Conditions[0].Message = "server/a: 2 of 3 replicas ready"
		}, true},
		{"replicas counted in Progressing's message", func(c *testCluster) {
			c.Status.Conditions[1].Message = "server/a: 2 of 3 replicas ready"
		}, true},
		{"an object found ready", func(c *testCluster) {
			it := &c.Status.RoleGroups[0].Objects.Items[0]
			it.Phase, it.Status = "", ""
		}, true},
		{"Available turns true", func(c *testCluster) {
			c.Status.Conditions[0].Status, c.Status.Conditions[0].Reason = metav1.ConditionTrue, "Available"
		}, false},
		{"another condition's message", func(c *testCluster) { c.Status.Conditions[2].Message = "other" }, false},
		{"a write recorded", func(c *testCluster) { c.Status.RoleGroups[0].Objects.Items[0].Digest = "d2" }, false},
		{"a generation recorded", func(c *testCluster) { c.Status.RoleGroups[0].Objects.Items[0].Generation = 2 }, false},
		{"an object being deleted", func(c *testCluster) {
			c.Status.RoleGroups[0].Objects.Items[0].Phase = inventory.PhaseDeleting
		}, false},
		{"an object added", func(c *testCluster) {
			inv := &c.Status.RoleGroups[0].Objects
			inv.Items = append(inv.Items, inventory.Item{Version: "v1", Kind: "ConfigMap", Name: "y"})
		}, false},
		{"a group retired", func(c *testCluster) { c.Status.RoleGroups = nil }, false},
		{"the observed generation", func(c *testCluster) { c.Status.ObservedGeneration = 3 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig, cr := base(), base()
			tc.change(cr)
			if got := progressOnly(orig, cr); got != tc.want {
				t.Errorf("progressOnly = %v, want %v", got, tc.want)
			}
		})
	}
}

// A resource's progress waits for the interval since its last status
// write, and not at all for a resource this process has not written.
func TestStatusPace(t *testing.T) {
	p := newStatusPace()
	key := types.NamespacedName{Namespace: "ns", Name: "a"}
	now := time.Unix(1000, 0)
	if w := p.wait(key, now, 10*time.Second); w != 0 {
		t.Errorf("a resource never written waits %s, want 0", w)
	}
	p.wrote(key, now)
	if w := p.wait(key, now.Add(4*time.Second), 10*time.Second); w != 6*time.Second {
		t.Errorf("4s after a write: wait %s, want 6s", w)
	}
	if w := p.wait(key, now.Add(10*time.Second), 10*time.Second); w != 0 {
		t.Errorf("an interval after a write: wait %s, want 0", w)
	}
	p.forget(key)
	if w := p.wait(key, now, 10*time.Second); w != 0 {
		t.Errorf("a forgotten resource waits %s, want 0", w)
	}
}
