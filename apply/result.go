package apply

import (
	"github.com/opkit-dev/opkit/api/inventory"
)

// Action is what a pass did to one object.
type Action string

// The actions of a Change.
const (
	// ActionCreated: the object did not exist and was created.
	ActionCreated Action = "created"
	// ActionUpdated: the object was written because it changed or drifted.
	ActionUpdated Action = "updated"
	// ActionUnchanged: the object was up to date; nothing was written.
	ActionUnchanged Action = "unchanged"
	// ActionRecreating: the object was deleted to be created again (update
	// policy recreate, or a preserved field that can change only so).
	ActionRecreating Action = "recreating"
	// ActionWaiting: the object was not touched this pass: an earlier wave
	// or the type that serves it is not ready yet, or it is still being
	// deleted by someone else.
	ActionWaiting Action = "waiting"
	// ActionDeleting: a delete was issued, or one is in progress; the
	// object is not gone yet.
	ActionDeleting Action = "deleting"
	// ActionDeleted: the object is gone and its item left the inventory.
	ActionDeleted Action = "deleted"
	// ActionPurged: a transient object (purge order) is gone after its wave;
	// its item stays, Completed.
	ActionPurged Action = "purged"
	// ActionOrphaned: the object left the inventory but was kept in the
	// cluster, as its delete policy says, without the owner's marks.
	ActionOrphaned Action = "orphaned"
	// ActionReleased: the object left the inventory without a delete,
	// and without the owner's marks, because the call released it
	// (PassOptions.Release).
	ActionReleased Action = "released"
	// ActionSkipped: the object was not ours to touch (another owner took it
	// over before its delete); its item left the inventory.
	ActionSkipped Action = "skipped"
	// ActionFailed: the step failed; Change.Err says why.
	ActionFailed Action = "failed"
)

// Change is what a pass did to one object.
type Change struct {
	// Object is the object's reference.
	Object inventory.Ref
	// Action is what happened.
	Action Action
	// Err is the failure of a failed step; nil otherwise.
	Err error
	// ResourceVersion is the version the object has after this pass's
	// write, for a created or updated object; empty otherwise. A watch
	// event of the object at this version is the pass's own write.
	ResourceVersion string
	// IgnoredFields are the paths of fields the desired object states
	// differently from the live one but that the API server does not let
	// change (such as "spec.volumeClaimTemplates"). They are reported on
	// every pass while the difference lasts; callers typically turn each
	// change carrying them into an ImmutableFieldIgnored warning.
	IgnoredFields []string
	// IgnoredValues are the values within IgnoredFields that differ, each
	// with its path, the live value and the desired one, so that a caller
	// can say what was asked and what stays; see IgnoredValue.
	IgnoredValues []IgnoredValue
}

// IgnoredValue is one value of a preserved field that the desired object
// states differently from the live one.
type IgnoredValue struct {
	// Path is the value's path in the object, list elements named by
	// their name where every element has one:
	// "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage".
	Path string
	// Live is the live object's value: a string as it is, a number or a
	// boolean as JSON, a map or a list as compact JSON (bounded), "" when
	// the live object has none.
	Live string
	// Desired is the desired object's value, written the same way; ""
	// when the desired object states none.
	Desired string
}

// Result is the outcome of an Apply or Delete pass.
type Result struct {
	// Done is set, for Apply, when every object is applied and ready and
	// every obsolete object is gone; for Delete, when every object is gone
	// (or orphaned) and the inventory is empty. Call again until it is.
	Done bool
	// Changes lists what happened to each object the pass looked at, in the
	// order of the waves and, within a wave, of the kinds and names.
	Changes []Change
}

// Failed returns the changes whose step failed.
func (r Result) Failed() []Change {
	var out []Change
	for _, c := range r.Changes {
		if c.Err != nil {
			out = append(out, c)
		}
	}
	return out
}

// Count returns how many changes have the action a.
func (r Result) Count(a Action) int {
	n := 0
	for _, c := range r.Changes {
		if c.Action == a {
			n++
		}
	}
	return n
}
