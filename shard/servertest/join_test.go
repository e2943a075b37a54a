package servertest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/testkit"
)

// TestAJoiningMemberTakesOnlyItsShareAfterEachOwnerLetsGo adds a fourth
// member to three: only the resources the new ring gives it move, each one
// after its old owner acknowledged the drain, and no resource has a pass of
// the new owner before the old owner's last pass ended.
func TestAJoiningMemberTakesOnlyItsShareAfterEachOwnerLetsGo(t *testing.T) {
	r := newRing(t, 60)
	for _, n := range []string{"op-0", "op-1", "op-2"} {
		r.join(n)
	}
	before := r.converge("op-0", "op-1", "op-2")
	shardKey, drainKey := r.keys()
	hist := watchHistory(t, r.c, r.ns, shardKey, drainKey)
	mark := r.journal.mark()

	r.join("op-3")
	after := r.converge("op-0", "op-1", "op-2", "op-3")

	var moved []string
	for name, s := range after {
		switch {
		case s.Owner == before[name].Owner:
			if h := hist.of(name); len(h) != 1 {
				t.Errorf("%s stayed with %s but its labels changed: %+v", name, s.Owner, h)
			}
		case s.Owner != "op-3":
			t.Errorf("%s moved from %s to %s: only moves to the new member are needed", name, before[name].Owner, s.Owner)
		default:
			moved = append(moved, name)
		}
	}
	if len(moved) == 0 || len(moved) > len(after)/2 {
		t.Fatalf("%d of %d resources moved to the new member, want about a quarter", len(moved), len(after))
	}
	slices.Sort(moved)
	// The labels are right; wait for the new owner's first pass over each.
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) ([]string, bool, error) {
		var waiting []string
		for _, name := range moved {
			if !slices.Contains(r.journal.owners(mark)[name], "op-3") {
				waiting = append(waiting, name)
			}
		}
		return waiting, len(waiting) == 0, nil
	}, 30*time.Second); err != nil {
		t.Fatalf("op-3 ran no pass over some of the resources it owns: %v", err)
	}
	for _, name := range moved {
		old := before[name].Owner
		want := []labelState{{Owner: old}, {Owner: old, Drain: "op-3"}, {}, {Owner: "op-3"}}
		if diff := cmp.Diff(want, hist.of(name)); diff != "" {
			t.Errorf("%s: assignment history (-want +got): the old owner must acknowledge before the new one claims:\n%s", name, diff)
		}
		if !r.journal.handedOver(name, old, "op-3") {
			t.Errorf("%s: a pass of op-3 began before the last pass of %s ended: %v", name, old, r.journal.owners(mark)[name])
		}
	}
	if o := r.journal.overlaps(); len(o) > 0 {
		t.Errorf("passes ran at once on two members: %v", o)
	}
}
