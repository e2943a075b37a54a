package apply

import (
	"fmt"

	"github.com/opkit-dev/opkit/api/inventory"
)

// DryRunError reports a dry run of a write the API server refused while
// planning: a 403 says which right the planner lacks (the verb on the
// object's resource), a 400 that admission refuses the object or that a
// webhook in the way does not support dry runs, a 422 that the object is
// invalid. Its class is that of the API error it wraps
// (apierrors.IsForbidden and friends see it).
type DryRunError struct {
	// Object is the object whose write was tried.
	Object inventory.Ref
	// Verb is the write's verb: "create", "update", "patch" or "delete".
	Verb string
	// Err is the API server's answer.
	Err error
}

// Error says which write of which object was refused, and why.
func (e *DryRunError) Error() string {
	return fmt.Sprintf("dry run of %s %s refused: %v", e.Verb, e.Object, e.Err)
}

// Unwrap returns Err.
func (e *DryRunError) Unwrap() error { return e.Err }
