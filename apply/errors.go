package apply

import (
	"fmt"
	"time"
)

// InvalidObjectError reports an object of the desired set that cannot be
// applied as written: a missing name, a generateName, a duplicate, or an
// unknown or malformed annotation. Retrying does not help; the input must
// change.
type InvalidObjectError struct {
	// Object names the object, e.g. "ConfigMap ns/name".
	Object string
	// Annotation is the offending annotation key, empty when the problem is
	// not an annotation.
	Annotation string
	// Reason says what is wrong.
	Reason string
}

// Error implements error.
func (e *InvalidObjectError) Error() string {
	if e.Annotation != "" {
		return fmt.Sprintf("invalid object %s: annotation %s: %s", e.Object, e.Annotation, e.Reason)
	}
	return fmt.Sprintf("invalid object %s: %s", e.Object, e.Reason)
}

// OwnershipError reports a live object the adoption policy does not allow
// the reconciler to take over: it is owned by someone else, or unowned while
// the policy is never.
type OwnershipError struct {
	// Object names the object.
	Object string
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

// RetriableError wraps a failure that resolves itself, such as a missing
// namespace that someone else is expected to create or a type whose
// definition is not served yet. Callers retry after RetryAfter when it is
// set, with their usual backoff otherwise.
type RetriableError struct {
	// Err is the underlying failure.
	Err error
	// RetryAfter, when non-nil, is the suggested delay before the next try.
	RetryAfter *time.Duration
}

// Error implements error.
func (e *RetriableError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying failure.
func (e *RetriableError) Unwrap() error { return e.Err }
