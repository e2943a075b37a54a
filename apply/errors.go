package apply

import (
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
)

// InvalidObjectError reports an object of the desired set that cannot be
// applied as written: a missing name, a generateName, a duplicate, an
// impossible order, or an unknown or malformed annotation. Retrying does
// not help; the input must change. Its class is failure.ErrInvalid; it is
// blamed on Options.ObjectsAuthor (the operator, unless the objects are
// user-written manifests).
type InvalidObjectError struct {
	// Object is the object's reference; Object.Name is empty for an object
	// that could not be read at all (see Position).
	Object inventory.Ref
	// Position is the object's index in the set passed to Apply.
	Position int
	// Annotation is the offending annotation key, empty when the problem is
	// not an annotation.
	Annotation string
	// Reason says what is wrong.
	Reason string
	// Author is whose mistake it is.
	Author failure.Author
}

// Error implements error.
func (e *InvalidObjectError) Error() string {
	obj := e.Object.String()
	if e.Object.Name == "" && e.Object.Kind == "" {
		obj = fmt.Sprintf("#%d", e.Position)
	}
	if e.Annotation != "" {
		return fmt.Sprintf("invalid object %s: annotation %s: %s", obj, e.Annotation, e.Reason)
	}
	return fmt.Sprintf("invalid object %s: %s", obj, e.Reason)
}

// Is reports failure.ErrInvalid.
func (e *InvalidObjectError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns Author.
func (e *InvalidObjectError) Blame() failure.Author { return e.Author }

// FieldPath returns the path of the offending field within the object:
// "metadata.annotations[<key>]" for an annotation, "metadata" otherwise.
func (e *InvalidObjectError) FieldPath() string {
	if e.Annotation != "" {
		return "metadata.annotations[" + e.Annotation + "]"
	}
	return "metadata"
}

// OwnershipRetryDelay is how long an OwnershipError asks to wait.
const OwnershipRetryDelay = time.Minute

// OwnershipError reports a live object the adoption policy does not allow
// the engine to take over: it is owned by someone else, or unowned while
// the policy is never. It is not invalid input (the desired object is fine,
// and the other owner may let go), so its class is failure.ErrRequeue with
// OwnershipRetryDelay: the pass fails only this object, and the caller
// looks again later. Callers still show it to the user, who may have to
// rename the object or change its adoption policy.
type OwnershipError struct {
	// Object is the object's reference.
	Object inventory.Ref
	// Owner is the owner id found on the live object, empty when unowned.
	Owner string
	// Policy is the adoption policy that refused.
	Policy AdoptionPolicy
}

// Error implements error.
func (e *OwnershipError) Error() string {
	owner := "no owner"
	if e.Owner != "" {
		owner = fmt.Sprintf("owner %q", e.Owner)
	}
	return fmt.Sprintf("object %s exists with %s; adoption policy %s does not allow taking it over", e.Object, owner, e.Policy)
}

// Is reports failure.ErrRequeue.
func (e *OwnershipError) Is(target error) bool { return target == failure.ErrRequeue }

// RetryDelay returns OwnershipRetryDelay.
func (e *OwnershipError) RetryDelay() time.Duration { return OwnershipRetryDelay }

// Compile-time checks of the classes' interfaces.
var (
	_ failure.Blamer  = (*InvalidObjectError)(nil)
	_ failure.Fielder = (*InvalidObjectError)(nil)
	_ failure.Delayer = (*OwnershipError)(nil)
)
