package apply

import (
	"errors"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/api/inventory"
)

// PlanAction is what the next pass would do to one object.
type PlanAction string

// The actions of a PlannedChange.
const (
	// PlanCreate: the object does not exist and would be created.
	PlanCreate PlanAction = "create"
	// PlanUpdate: the object exists and would be written.
	PlanUpdate PlanAction = "update"
	// PlanRecreate: the object would be deleted and created again (update
	// policy recreate).
	PlanRecreate PlanAction = "recreate"
	// PlanDelete: the object left the set (or its owner is deleted) and
	// would be deleted.
	PlanDelete PlanAction = "delete"
	// PlanOrphan: the object left the set and would be kept, without the
	// owner's marks, as its delete policy says.
	PlanOrphan PlanAction = "orphan"
	// PlanRelease: the object left the set and would be handed to the
	// caller (PassOptions.Release), kept and unmarked.
	PlanRelease PlanAction = "release"
	// PlanUnchanged: the object is as desired; nothing would be written.
	PlanUnchanged PlanAction = "unchanged"
	// PlanBlocked: the object differs from what is desired but the pass
	// would not (or could not) make it so; Cause and Reason say why.
	PlanBlocked PlanAction = "blocked"
)

// BlockCause says why a change is blocked.
type BlockCause string

// The causes of a blocked change.
const (
	// BlockForeignOwner: the live object belongs to another owner and its
	// adoption policy does not allow taking it over.
	BlockForeignOwner BlockCause = "ForeignOwner"
	// BlockImmutableField: every difference lies in fields the API server
	// does not let change (IgnoredFields names them).
	BlockImmutableField BlockCause = "ImmutableField"
	// BlockPolicy: a policy keeps the pass from writing (missing-namespaces
	// policy do-not-create). An object with reconcile policy once that
	// differs is unchanged, not blocked: the pass takes it as it is, and
	// its Reason says it differs.
	BlockPolicy BlockCause = "Policy"
)

// FieldChange is one field a planned update changes, by path: maps by key
// ("spec.replicas", "metadata.labels[app.kubernetes.io/name]"), lists of
// named elements by name ("spec.template.spec.containers[name=kafka].image"),
// other lists by index. It carries no value: Secret data is never shown.
type FieldChange struct {
	// Path is the field's path in the object.
	Path string
	// Change is "added", "removed" or "changed".
	Change string
}

// The values of FieldChange.Change.
const (
	FieldAdded   = "added"
	FieldRemoved = "removed"
	FieldChanged = "changed"
)

// PlannedChange is what the next pass would do to one object, and why.
type PlannedChange struct {
	// Object is the object's reference.
	Object inventory.Ref
	// Action is what would happen.
	Action PlanAction
	// Wave is the object's apply order, or, for objects leaving the set,
	// its delete order.
	Wave int
	// Transient is set for an object with a purge order: created, run and
	// deleted again at the end of its wave.
	Transient bool
	// Cause says why a PlanBlocked change is blocked; empty otherwise.
	Cause BlockCause
	// Reason says why, in words, where the action alone does not: the
	// drift behind an update, the policy behind an orphan, a blocked
	// change's cause, why a change is not verified.
	Reason string
	// Fields are the fields an update or recreate changes, sorted by path;
	// nil for other actions.
	Fields []FieldChange
	// Live is the live object, normalised (no managed fields, server
	// bookkeeping or status; Secret data masked); nil when there is none
	// or the action needs none (unchanged).
	Live *unstructured.Unstructured
	// Desired is the object the pass would leave, normalised the same
	// way: the API server's answer to a dry run of the write when
	// Verified; nil for deletes and unchanged objects.
	Desired *unstructured.Unstructured
	// Verified is set when the API server accepted a dry run of the
	// write (admission, defaulting and webhooks included). A create in a
	// namespace or of a type the same pass brings first cannot be tried
	// and is not verified; the create of a recreate is tried under a name
	// the server generates (the object's own is taken until the delete).
	Verified bool
	// IgnoredFields and IgnoredValues are the fields that cannot change
	// which the desired object states differently, as in Change.
	IgnoredFields []string
	// IgnoredValues are the values within IgnoredFields that differ.
	IgnoredValues []IgnoredValue
	// Err is why the object could not be planned (a dry run the API server
	// refused, a read that failed); nil otherwise. A plan with an error
	// in any change is not complete.
	Err error
}

// Plan is what the next pass over a set would do, per object: the objects
// of the set in apply order (wave, kind, name), then the objects leaving
// it (those let go first, then the deletes in delete order).
type Plan struct {
	// Changes lists every object of the set and every object leaving it.
	Changes []PlannedChange
}

// HasChanges reports whether any object would be created, written,
// deleted or let go, or is blocked from being so.
func (p Plan) HasChanges() bool {
	for _, c := range p.Changes {
		if c.Action != PlanUnchanged {
			return true
		}
	}
	return false
}

// Err joins the errors of the changes: nil when the plan is complete.
func (p Plan) Err() error {
	var errs []error
	for _, c := range p.Changes {
		if c.Err != nil {
			errs = append(errs, c.Err)
		}
	}
	return errors.Join(errs...)
}

// Count returns how many changes have the action a.
func (p Plan) Count(a PlanAction) int {
	n := 0
	for _, c := range p.Changes {
		if c.Action == a {
			n++
		}
	}
	return n
}
