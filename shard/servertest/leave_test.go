package servertest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// TestALeavingMemberHandsOverAtOnce stops a member's controller and
// releases its Lease, as a replica shutting down does: its resources move
// without waiting for the lease to expire (the fake clock never moves).
func TestALeavingMemberHandsOverAtOnce(t *testing.T) {
	r := newRing(t, 30)
	for _, n := range []string{"op-0", "op-1", "op-2"} {
		r.join(n)
	}
	before := r.converge("op-0", "op-1", "op-2")

	leaving := r.members["op-1"]
	leaving.stop()
	if err := leaving.member.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	delete(r.members, "op-1")
	held := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Labels: leaving.member.ObjectLabels()}}
	if owns, err := leaving.member.Owns(t.Context(), held); owns || err != nil {
		t.Errorf("a released member still owns resources: %v, %v", owns, err)
	}
	after := r.converge("op-0", "op-2")
	for name, s := range after {
		if before[name].Owner != "op-1" && s.Owner != before[name].Owner {
			t.Errorf("%s moved from %s to %s: only op-1's resources should move", name, before[name].Owner, s.Owner)
		}
	}
}

// TestAFencedMemberLearnsItLostItsLease lets a member's Lease go silent
// until the others fence it: the member is no longer live by its own clock
// before they act, and its next renewal (and so Start) reports the loss.
func TestAFencedMemberLearnsItLostItsLease(t *testing.T) {
	r := newRing(t, 6)
	for _, n := range []string{"op-0", "op-1"} {
		r.join(n)
	}
	r.converge("op-0", "op-1")
	silent := r.members["op-1"]
	silent.stop()
	delete(r.members, "op-1")

	r.clock.Step(leaseDuration)
	if silent.member.Live() {
		t.Error("op-1 is still live by its own clock a lease duration after its last renewal")
	}
	r.clock.Step(expiryMargin)
	r.converge("op-0")

	ctx, cancel := context.WithTimeout(testkit.Context(t), 30*time.Second)
	defer cancel()
	err := silent.member.Start(ctx)
	var lost *shard.LostError
	if !errors.As(err, &lost) {
		t.Fatalf("Start of a fenced member returned %v, want a *shard.LostError", err)
	}
	if diff := cmp.Diff("op-1", lost.Member); diff != "" {
		t.Errorf("LostError.Member (-want +got):\n%s", diff)
	}
}

// TestTwoProcessesUnderOneNameAreRefused starts a second member with the
// name of a running one, as a misconfigured Deployment would: the first
// learns at its next renewal that someone else renews its Lease, and
// stops, instead of both reconciling the same share.
func TestTwoProcessesUnderOneNameAreRefused(t *testing.T) {
	r := newRing(t, 0)
	first := r.join("op-0").member
	second, err := shard.New(r.c, r.c, shard.Options{
		Ring: ringName, Member: "op-0", Namespace: r.ns,
		Resources: []schema.GroupVersionKind{sampleGVK}, Clock: r.clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Renew(t.Context()); err != nil {
		t.Fatal(err)
	}
	err = first.Renew(t.Context())
	var lost *shard.LostError
	if !errors.As(err, &lost) {
		t.Fatalf("renewing a Lease another process renewed returned %v, want a *shard.LostError", err)
	}
	if first.Live() {
		t.Error("the member is still live after it found another process under its name")
	}
}
