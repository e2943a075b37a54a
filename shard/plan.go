package shard

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Resource is what the assignment reads of one resource: where it is and
// its two labels.
type Resource struct {
	// Ref names the resource.
	Ref Ref
	// ResourceVersion is the version read; a change is made only on it.
	ResourceVersion string
	// Owner is the value of the shard label: the member that owns the
	// resource, or "" when none does.
	Owner string
	// Drain is the value of the drain label: the member that asked the
	// owner to hand the resource over, or "" when none did.
	Drain string
}

// Ref names a resource.
type Ref struct {
	// GroupVersionKind is the resource's kind.
	schema.GroupVersionKind
	// Namespace is empty for a cluster-scoped resource.
	Namespace string
	// Name is the resource's name.
	Name string
}

// String names the resource for logs: "Kind namespace/name", or "Kind
// name" when it is cluster-scoped. (Without it, the embedded
// GroupVersionKind's String would name the kind alone.)
func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Key returns the resource's ring key.
func (r Ref) Key() string { return Key(r.GroupKind(), r.Namespace, r.Name) }

// Step is one kind of change a member makes to the assignment.
type Step string

// The steps of the assignment protocol.
const (
	// StepClaim labels a resource with the claiming member: a resource no
	// member owns, or one whose owner is gone.
	StepClaim Step = "Claim"
	// StepDrain asks a resource's live owner to hand it over. The owner
	// acknowledges before its next pass by removing its label, which
	// leaves the resource to be claimed.
	StepDrain Step = "Drain"
	// StepFence deletes a gone member's Lease, on the condition that it
	// did not change since it was last seen. Only once the Lease is gone
	// are the member's resources claimed, so a member that was merely
	// slow but renewed in time keeps them.
	StepFence Step = "Fence"
)

// Action is one change a member makes. Actions are data: Sync returns the
// ones it made.
type Action struct {
	// Step is what the change does.
	Step Step
	// Resource is the resource changed; zero for StepFence.
	Resource Ref
	// From is the previous owner for StepClaim and StepDrain ("" when the
	// resource had none), the gone member for StepFence.
	From string
	// ResourceVersion is the version the change is conditioned on.
	ResourceVersion string
}

// plan returns the changes member me makes given its view, its ring and the
// resources, sorted by step order then resource. Each member acts only on
// the resources its ring gives to it; the other members act on theirs, so
// a change needs no coordinator. Views may disagree for a moment; every
// change is conditioned on the version read, so two members never both
// succeed on one resource, and the owner itself is the only one who lets a
// live member's resource go.
func plan(me string, v View, ring *Ring, resources []Resource) []Action {
	onRing := make(map[string]bool)
	for _, m := range v.RingMembers() {
		onRing[m] = true
	}
	gone := make(map[string]bool)
	var actions []Action
	for _, g := range v.Gone {
		gone[g.Name] = true
		actions = append(actions, Action{Step: StepFence, From: g.Name, ResourceVersion: g.ResourceVersion})
	}
	for _, r := range resources {
		if r.Owner == me || ring.Owner(r.Ref.Key()) != me {
			continue
		}
		act := Action{Resource: r.Ref, From: r.Owner, ResourceVersion: r.ResourceVersion}
		switch {
		case r.Owner == "":
			act.Step = StepClaim
		case onRing[r.Owner]:
			if r.Drain != "" {
				continue // asked already: the owner acknowledges at its next pass
			}
			act.Step = StepDrain
		case gone[r.Owner]:
			continue // its Lease is fenced first
		default:
			// The owner has no Lease: it released it when it left, or it
			// was fenced. Sync lists the resources before the Leases, so
			// an owner that claimed this resource had its Lease then.
			act.Step = StepClaim
		}
		actions = append(actions, act)
	}
	slices.SortStableFunc(actions, func(a, b Action) int {
		return cmp.Or(cmp.Compare(stepOrder(a.Step), stepOrder(b.Step)), compareRefs(a.Resource, b.Resource))
	})
	return actions
}

func stepOrder(s Step) int {
	return slices.Index([]Step{StepFence, StepDrain, StepClaim}, s)
}

func compareRefs(a, b Ref) int {
	return cmp.Or(
		cmp.Compare(a.Group, b.Group), cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name),
	)
}
