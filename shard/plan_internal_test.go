package shard

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var sampleGVK = schema.GroupVersionKind{Group: "sample.opkit.dev", Version: "v1alpha1", Kind: "SampleCluster"}

// resourcesFor returns one distinct resource the ring gives to each of
// members, in that order, so a test can say whose resource it means.
func resourcesFor(t *testing.T, ring *Ring, members ...string) []Ref {
	t.Helper()
	var out []Ref
	i := 0
	for _, m := range members {
		for ; ; i++ {
			if i > 100000 {
				t.Fatalf("no resource hashes to %s", m)
			}
			ref := Ref{GroupVersionKind: sampleGVK, Namespace: "ns", Name: fmt.Sprintf("r-%d", i)}
			if ring.Owner(ref.Key()) == m {
				out = append(out, ref)
				i++
				break
			}
		}
	}
	return out
}

func TestPlan(t *testing.T) {
	view := View{Live: []string{"a", "b"}, Expired: []string{"c"}, Gone: []LeaseRef{{Name: "d", ResourceVersion: "9"}}}
	ring := NewRing(view.RingMembers(), 0)
	mine := resourcesFor(t, ring, "a")[0]
	theirs := resourcesFor(t, ring, "b")[0]
	tests := []struct {
		name     string
		resource Resource
		want     []Action
	}{
		{name: "unassigned and mine: claim", resource: Resource{Ref: mine, ResourceVersion: "1"},
			want: []Action{{Step: StepClaim, Resource: mine, ResourceVersion: "1"}}},
		{name: "unassigned and another's: leave it to them", resource: Resource{Ref: theirs, ResourceVersion: "1"}},
		{name: "owned by me: nothing", resource: Resource{Ref: mine, Owner: "a", ResourceVersion: "1"}},
		{name: "mine but owned by a live member: ask for a drain", resource: Resource{Ref: mine, Owner: "b", ResourceVersion: "1"},
			want: []Action{{Step: StepDrain, Resource: mine, From: "b", ResourceVersion: "1"}}},
		{name: "mine, owned by an expired member: ask, it keeps it until gone", resource: Resource{Ref: mine, Owner: "c", ResourceVersion: "1"},
			want: []Action{{Step: StepDrain, Resource: mine, From: "c", ResourceVersion: "1"}}},
		{name: "drain asked already: wait for the acknowledgement", resource: Resource{Ref: mine, Owner: "b", Drain: "a", ResourceVersion: "2"}},
		{name: "owner gone but its lease not yet fenced: wait", resource: Resource{Ref: mine, Owner: "d", ResourceVersion: "1"}},
		{name: "owner without a lease: claim", resource: Resource{Ref: mine, Owner: "e", Drain: "a", ResourceVersion: "3"},
			want: []Action{{Step: StepClaim, Resource: mine, From: "e", ResourceVersion: "3"}}},
		{name: "another's, owned by me: the other asks, not me", resource: Resource{Ref: theirs, Owner: "a", ResourceVersion: "1"}},
	}
	fence := Action{Step: StepFence, From: "d", ResourceVersion: "9"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := append([]Action{fence}, tt.want...)
			if diff := cmp.Diff(want, plan("a", view, ring, []Resource{tt.resource})); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanOrdersFencesThenDrainsThenClaims(t *testing.T) {
	view := View{Live: []string{"a", "b"}, Gone: []LeaseRef{{Name: "z", ResourceVersion: "1"}}}
	ring := NewRing(view.RingMembers(), 0)
	refs := resourcesFor(t, ring, "a", "a")
	got := plan("a", view, ring, []Resource{{Ref: refs[0]}, {Ref: refs[1], Owner: "b"}})
	var steps []Step
	for _, a := range got {
		steps = append(steps, a.Step)
	}
	if diff := cmp.Diff([]Step{StepFence, StepDrain, StepClaim}, steps); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}

// A Ref in a log names the resource, not only its kind.
func TestRefString(t *testing.T) {
	for _, tc := range []struct {
		ref  Ref
		want string
	}{
		{Ref{GroupVersionKind: schema.GroupVersionKind{Group: "web.example", Version: "v1", Kind: "Website"}, Namespace: "shop", Name: "home"}, "Website shop/home"},
		{Ref{GroupVersionKind: schema.GroupVersionKind{Group: "web.example", Version: "v1", Kind: "Site"}, Name: "all"}, "Site all"},
	} {
		if got := tc.ref.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
