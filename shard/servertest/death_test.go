package servertest_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestADeadMembersResourcesMoveOnlyAfterItsLeaseCertainlyExpired stops a
// member without letting it release its Lease, as a crash would. The
// others keep its resources where they are while its Lease may still hold
// (its duration plus the margin, by the fake clock), then fence the Lease
// and share the resources out.
func TestADeadMembersResourcesMoveOnlyAfterItsLeaseCertainlyExpired(t *testing.T) {
	r := newRing(t, 60)
	for _, n := range []string{"op-0", "op-1", "op-2"} {
		r.join(n)
	}
	before := r.converge("op-0", "op-1", "op-2")

	r.members["op-2"].stop()
	delete(r.members, "op-2")
	// Up to the last second before the margin ends, nothing moves.
	for step := time.Second; step < leaseDuration+expiryMargin; step += time.Second {
		r.clock.Step(time.Second)
		if err := r.round(t.Context()); err != nil {
			t.Fatal(err)
		}
		got, err := r.assignment(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, got); diff != "" {
			t.Fatalf("%s after op-2 stopped, before its lease certainly expired, resources moved (-before +now):\n%s", step, diff)
		}
	}
	r.clock.Step(time.Second)
	after := r.converge("op-0", "op-1")
	for name, s := range after {
		if before[name].Owner != "op-2" && s.Owner != before[name].Owner {
			t.Errorf("%s moved from %s to %s: only op-2's resources should move", name, before[name].Owner, s.Owner)
		}
	}
	if o := r.journal.overlaps(); len(o) > 0 {
		t.Errorf("passes ran at once on two members: %v", o)
	}
}
