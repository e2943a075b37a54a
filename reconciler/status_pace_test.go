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
// write, twice as long after each progress-only write up to eight
// intervals, one interval again after any other write, and not at all for
// a resource this process has not written.
func TestStatusPace(t *testing.T) {
	const interval = 10 * time.Second
	key := types.NamespacedName{Namespace: "ns", Name: "a"}
	t0 := time.Unix(1000, 0)
	type write struct {
		at       time.Duration
		progress bool
	}
	for _, tc := range []struct {
		name   string
		writes []write
		at     time.Duration
		want   time.Duration
	}{
		{"never written", nil, 0, 0},
		{"4s after a write", []write{{0, false}}, 4 * time.Second, 16 * time.Second},
		{"an interval after a write", []write{{0, false}}, interval, interval},
		{"two intervals after a write", []write{{0, false}}, 2 * interval, 0},
		{"after one progress write", []write{{0, false}, {20 * time.Second, true}}, 25 * time.Second, 35 * time.Second},
		{"after two progress writes", []write{{0, false}, {20 * time.Second, true}, {60 * time.Second, true}}, 60 * time.Second, 80 * time.Second},
		{"eight intervals at most", []write{{0, true}, {1, true}, {2, true}, {3, true}, {4, true}, {5, true}}, 5, 80 * time.Second},
		{"another write starts again", []write{{0, true}, {1, true}, {2, true}, {3, false}}, 3, 2 * interval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newStatusPace(time.Second)
			for _, w := range tc.writes {
				p.wrote(key, t0.Add(w.at), w.progress)
			}
			held, wait := p.hold(key, t0.Add(tc.at), interval)
			if held != (tc.want > 0) || wait != tc.want {
				t.Errorf("hold = %v, %s, want %v, %s", held, wait, tc.want > 0, tc.want)
			}
		})
	}
	p := newStatusPace(time.Second)
	p.wrote(key, t0, false)
	p.forget(key)
	if held, wait := p.hold(key, t0, interval); held {
		t.Errorf("a forgotten resource is held for %s, want not held", wait)
	}
}

// The progress-only writes of all resources share one budget: one write
// per ProgressWriteEvery. A write the budget refuses is held without a
// wait of its own (the resource's next pass tries again), and a write its
// resource's spacing holds leaves the budget to the others.
func TestStatusPaceBudget(t *testing.T) {
	const interval, every = 10 * time.Second, 2 * time.Second
	a := types.NamespacedName{Namespace: "ns", Name: "a"}
	b := types.NamespacedName{Namespace: "ns", Name: "b"}
	c := types.NamespacedName{Namespace: "ns", Name: "c"}
	t0 := time.Unix(1000, 0)
	type ask struct {
		key    types.NamespacedName
		at     time.Duration
		held   bool
		wait   time.Duration
		writes bool // the write is made, and noted as progress
	}
	steps := []ask{
		{key: a, at: 0, writes: true},
		{key: b, at: 0, held: true},
		{key: b, at: time.Second, held: true},
		{key: b, at: every, writes: true},
		{key: c, at: every, held: true},
		{key: a, at: 3 * time.Second, held: true, wait: 37 * time.Second},
		{key: c, at: 2 * every, writes: true},
		{key: a, at: 40 * time.Second, writes: true},
	}
	p := newStatusPace(every)
	for i, s := range steps {
		now := t0.Add(s.at)
		held, wait := p.hold(s.key, now, interval)
		if held != s.held || wait != s.wait {
			t.Errorf("step %d (%s at %s): hold = %v, %s, want %v, %s", i, s.key.Name, s.at, held, wait, s.held, s.wait)
		}
		if s.writes {
			p.wrote(s.key, now, true)
		}
	}
}
