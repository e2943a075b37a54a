package s3

import (
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/api/failure"
)

// NotFoundError says a referenced S3Bucket or S3Connection does not exist
// (yet): the pass waits for it (class failure.ErrRequeue) instead of
// failing, since the user may be creating it right now. The API server's
// NotFound stays in the chain.
type NotFoundError struct {
	// Kind is "S3Bucket" or "S3Connection".
	Kind string
	// Namespace and Name locate the missing object.
	Namespace, Name string
	// Field is the absolute path of the reference, as the user wrote it.
	Field string
	// After is when to look again.
	After time.Duration
	// Err is the API server's answer.
	Err error
}

// Error names the object and the field that refers to it.
func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s: %s %s/%s does not exist yet", e.Field, e.Kind, e.Namespace, e.Name)
}

// Unwrap returns the API server's answer.
func (e *NotFoundError) Unwrap() error { return e.Err }

// Is reports failure.ErrRequeue.
func (e *NotFoundError) Is(target error) bool { return target == failure.ErrRequeue }

// RetryDelay returns After.
func (e *NotFoundError) RetryDelay() time.Duration { return e.After }

// FieldPath returns Field.
func (e *NotFoundError) FieldPath() string { return e.Field }

// invalid returns a user's mistake at field.
func invalid(field, format string, args ...any) error {
	return failure.Invalid(failure.AuthorUser, field, format, args...)
}
