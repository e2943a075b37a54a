package orphan

import (
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Result is what one pass did and what it leaves to do. It carries data,
// not messages: the caller turns it into events, conditions and progress
// output.
type Result struct {
	// Groups reports every removed role group the pass reached, sorted by
	// role and group: those of the ledger and those found only in the live
	// cluster. A pass stopped by a rate limit omits the groups it did not
	// reach.
	Groups []GroupReport
	// Unmarked lists the objects of declared role groups whose progress
	// marks the pass removed: a group declared again in the middle of its
	// teardown, whose next teardown starts afresh.
	Unmarked []Action
	// RolePDBs lists the role-level PodDisruptionBudgets of roles the spec
	// no longer declares that the pass deleted.
	RolePDBs []Action
	// RequeueAfter is the latest time from now at which the next pass
	// should run; zero when nothing is pending.
	RequeueAfter time.Duration
}

// GroupReport is one removed role group after a pass.
type GroupReport struct {
	// RoleGroup names the group.
	RoleGroup v1alpha1.RoleGroupRef
	// InLedger is false for a group found only in the live cluster: the
	// status ledger lost it, or never recorded it.
	InLedger bool
	// Stage is where the group's teardown stands.
	Stage Stage
	// Since is when the stage began, where a progress mark records it: the
	// grace period and the drain. Zero otherwise.
	Since time.Time
	// Deadline is when the stage ends at the latest: the end of the grace
	// period, or the drain timeout. Zero otherwise.
	Deadline time.Time
	// Actions lists what the pass did to the group's objects, in order.
	Actions []Action
	// Err is the group's failure in this pass, if any; Clean's error joins
	// it.
	Err error
}

// Remaining returns the time from now to Deadline, zero when there is no
// deadline or it has passed: "server/old: Draining, 3m12s left".
func (g GroupReport) Remaining(now time.Time) time.Duration {
	if g.Deadline.IsZero() {
		return 0
	}
	return max(g.Deadline.Sub(now), 0)
}

// Action is one change the pass made to an object: an event's worth.
type Action struct {
	// Type says what was done.
	Type ActionType
	// RoleGroup is the role group the object belongs to. Group is empty for
	// a role's PodDisruptionBudget.
	RoleGroup v1alpha1.RoleGroupRef
	// Object is the object acted on: API version, kind, namespace, name and
	// UID. A *corev1.ObjectReference is accepted by event recorders as the
	// related object.
	Object corev1.ObjectReference
}

// ActionType says what an Action did. The values read as event reasons.
type ActionType string

// The action types.
const (
	// ActionMarked stamped the pending-deletion mark: the grace period began.
	ActionMarked ActionType = "MarkedForDeletion"
	// ActionScaledDown set a StatefulSet's replicas to zero and stamped the
	// start of its drain.
	ActionScaledDown ActionType = "ScaledDown"
	// ActionDrainStarted stamped the start of the drain of a StatefulSet
	// found at zero replicas with pods left.
	ActionDrainStarted ActionType = "DrainStarted"
	// ActionDeleted deleted the object.
	ActionDeleted ActionType = "Deleted"
	// ActionDeletedAfterDrainTimeout deleted a StatefulSet whose pods were
	// not all gone when the drain timed out.
	ActionDeletedAfterDrainTimeout ActionType = "DeletedAfterDrainTimeout"
	// ActionUnmarked removed the progress marks from an object of a
	// declared role group.
	ActionUnmarked ActionType = "Unmarked"
)

// Pending returns the removed role groups not yet reclaimed, sorted.
func (r Result) Pending() []v1alpha1.RoleGroupRef {
	return r.refs(func(g GroupReport) bool { return g.Stage != StageReclaimed })
}

// Reclaimed returns the role groups an uncached read found gone in this
// pass, sorted: drop them from the ledger (see Prune).
func (r Result) Reclaimed() []v1alpha1.RoleGroupRef {
	return r.refs(func(g GroupReport) bool { return g.Stage == StageReclaimed })
}

// Prune returns the ledger (ClusterStatus.RoleGroups) without the groups
// the pass reclaimed, keeping its order. ledger is not modified.
func (r Result) Prune(ledger []v1alpha1.RoleGroupStatus) []v1alpha1.RoleGroupStatus {
	reclaimed := r.Reclaimed()
	return slices.DeleteFunc(slices.Clone(ledger), func(e v1alpha1.RoleGroupStatus) bool {
		return slices.Contains(reclaimed, e.RoleGroupRef)
	})
}

// Actions returns every action of the pass: the unmarked objects, then
// each group's actions in group order, then the role
// PodDisruptionBudgets.
func (r Result) Actions() []Action {
	out := slices.Clone(r.Unmarked)
	for _, g := range r.Groups {
		out = append(out, g.Actions...)
	}
	return append(out, r.RolePDBs...)
}

func (r Result) refs(keep func(GroupReport) bool) []v1alpha1.RoleGroupRef {
	var out []v1alpha1.RoleGroupRef
	for _, g := range r.Groups {
		if keep(g) {
			out = append(out, g.RoleGroup)
		}
	}
	return out
}
