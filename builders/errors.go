package builders

import "fmt"

// ValidationError reports input a user got wrong: a value in the cluster
// resource that cannot be turned into a valid object. A caller should fail
// the role group and surface the message on the resource, not retry soon,
// because the same input fails the same way. Detect it with errors.As:
//
//	var verr *builders.ValidationError
//	if errors.As(err, &verr) { ... verr.Field ... }
type ValidationError struct {
	// Field is the path of the offending field as the user wrote it, e.g.
	// "config.gracefulShutdownTimeout" or
	// "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/data]".
	Field string
	// Message says what is wrong with the field.
	Message string
	// Err is the underlying cause, if any.
	Err error
}

// Error returns "<field>: <message>", followed by the cause when there is one.
func (e *ValidationError) Error() string {
	msg := e.Field + ": " + e.Message
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *ValidationError) Unwrap() error { return e.Err }

// validationErrorf returns a ValidationError for field with a formatted message.
func validationErrorf(field, format string, args ...any) *ValidationError {
	return &ValidationError{Field: field, Message: fmt.Sprintf(format, args...)}
}
