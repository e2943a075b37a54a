package builders

import (
	"fmt"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// ValidationError reports input that cannot be turned into a valid object:
// a value in the cluster resource (Author failure.AuthorUser) or something
// the operator declared (failure.AuthorOperator). The same input fails the
// same way, so a caller fails what the input touches and reports it where
// its author looks instead of retrying soon.
//
// It is of class failure.ErrInvalid and implements failure.Blamer and
// failure.Fielder, so a caller needs no module type:
//
//	if errors.Is(err, failure.ErrInvalid) && failure.AuthorOf(err) == failure.AuthorUser {
//		// condition + Warning event naming failure.FieldOf(err)
//	}
type ValidationError struct {
	// Author is whose mistake it is.
	Author failure.Author
	// Field is the absolute path of the offending field as its author
	// wrote it, e.g.
	// "spec.roles.server.roleGroups.default.config.gracefulShutdownTimeout"
	// or, for the operator, a declaration name such as
	// "configFiles[zoo.cfg][tickTime]".
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

// Is reports the class failure.ErrInvalid.
func (e *ValidationError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns Author.
func (e *ValidationError) Blame() failure.Author { return e.Author }

// FieldPath returns Field.
func (e *ValidationError) FieldPath() string { return e.Field }

// layerError returns a ValidationError for field (relative to layer) of the
// scope's role and role group, blamed on the layer's author.
func layerError(s Scope, layer commonsv1alpha1.Layer, field, format string, args ...any) *ValidationError {
	return &ValidationError{
		Author:  layer.Author(),
		Field:   layer.FieldPath(s.Role, s.RoleGroup, field),
		Message: fmt.Sprintf(format, args...),
	}
}

// operatorError returns a ValidationError blamed on the operator's author
// for field, a declaration or option name.
func operatorError(field, format string, args ...any) *ValidationError {
	return &ValidationError{Author: failure.AuthorOperator, Field: field, Message: fmt.Sprintf(format, args...)}
}
