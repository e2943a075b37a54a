package configfold

import (
	"errors"
	"fmt"
	"strings"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Causes a FieldError wraps, for errors.Is.
var (
	// ErrUnknownField means a field is not part of the Kubernetes type it
	// was decoded into, usually a misspelling.
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicateField means a field is stated twice in one object.
	ErrDuplicateField = errors.New("duplicate field")
	// ErrMalformed means a value is not valid JSON or has the wrong type.
	ErrMalformed = errors.New("malformed value")
	// ErrInvalidValue means a value decodes but is not acceptable, such as
	// a negative duration or an unknown patch directive value.
	ErrInvalidValue = errors.New("invalid value")
)

// FieldError says which field of which layer is wrong. It is the error
// type of everything in this package that judges input, and it belongs to
// the class failure.ErrInvalid: the same input fails the same way until its
// author changes it. FieldPath gives the field's absolute path and Blame
// whose layer it is, so a caller reports it where that author looks (a
// condition and a Warning event for the user, a startup error for the
// operator) without knowing this type.
type FieldError struct {
	// Layer is where the field was written. Empty only for an error of
	// DecodeAffinity called on its own, which knows no layer.
	Layer commonsv1alpha1.Layer
	// RoleName is the role the layer belongs to.
	RoleName string
	// RoleGroupName is the role group, for the role group's layer.
	RoleGroupName string
	// Field is the dotted path of the field relative to the layer, for
	// example "config.affinity.nodeAffinty" or
	// "podOverrides.spec.containres"; relative to the affinity value when
	// Layer is empty.
	Field string
	// Err is the cause; it wraps one of the Err* sentinels.
	Err error
}

// FieldPath returns the field's absolute path as its author wrote it, such
// as "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty", or
// "roles[server].config.affinity" for the operator's declaration (see
// commonsv1alpha1.Layer.FieldPath). Without a Layer it is Field.
func (e *FieldError) FieldPath() string {
	return e.Layer.FieldPath(e.RoleName, e.RoleGroupName, e.Field)
}

// Blame returns the author of the layer: failure.AuthorUser for the
// cluster resource's layers, failure.AuthorOperator for the declaration,
// failure.AuthorUnknown without a Layer.
func (e *FieldError) Blame() failure.Author { return e.Layer.Author() }

// Is reports the class failure.ErrInvalid.
func (e *FieldError) Is(target error) bool { return target == failure.ErrInvalid }

// Error returns "<absolute path>: <cause>".
func (e *FieldError) Error() string {
	if p := e.FieldPath(); p != "" {
		return p + ": " + e.Err.Error()
	}
	return e.Err.Error()
}

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// place returns the FieldErrors in err placed at a layer's location, their
// fields prefixed with field. Errors of other types become a FieldError on
// field itself. Several are joined with errors.Join.
func place(err error, at location, field string) error {
	if err == nil {
		return nil
	}
	out := make([]error, 0, 1)
	for _, e := range flatten(err) {
		fe := &FieldError{Layer: at.Layer, RoleName: at.RoleName, RoleGroupName: at.RoleGroupName, Field: field, Err: e}
		var inner *FieldError
		if errors.As(e, &inner) {
			fe.Err = inner.Err
			fe.Field = joinField(field, inner.Field)
		}
		out = append(out, fe)
	}
	return errors.Join(out...)
}

// flatten returns the errors joined in err, or err alone.
func flatten(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	return []error{err}
}

// joinField appends a relative path to a prefix; a list index ("[0]...")
// attaches without a dot.
func joinField(prefix, field string) string {
	switch {
	case field == "":
		return prefix
	case prefix == "":
		return field
	case strings.HasPrefix(field, "["):
		return prefix + field
	}
	return prefix + "." + field
}

// TypeError says why a product's config type cannot be folded by
// FoldProduct. It is the operator's programming error, not the user's: it
// belongs to the class failure.ErrInvalid and blames failure.AuthorOperator.
type TypeError struct {
	// Type is the product config type's name.
	Type string
	// GoField is the offending Go field name; empty when the type as a whole
	// is refused.
	GoField string
	// JSONName is the field's JSON name, as a user would write it.
	JSONName string
	// Reason says what is wrong and how to fix it.
	Reason string
}

// Error implements error.
func (e *TypeError) Error() string {
	if e.GoField == "" {
		return fmt.Sprintf("product config type %s: %s", e.Type, e.Reason)
	}
	return fmt.Sprintf("product config type %s: field %s (json %q): %s", e.Type, e.GoField, e.JSONName, e.Reason)
}

// FieldPath returns the Go path of the offending field, "<Type>.<GoField>",
// or the type alone when the type as a whole is refused.
func (e *TypeError) FieldPath() string {
	if e.GoField == "" {
		return e.Type
	}
	return e.Type + "." + e.GoField
}

// Blame returns failure.AuthorOperator: only the operator's author can
// change the type.
func (e *TypeError) Blame() failure.Author { return failure.AuthorOperator }

// Is reports the class failure.ErrInvalid.
func (e *TypeError) Is(target error) bool { return target == failure.ErrInvalid }

// Compile-time checks that both error types say their author and field.
var (
	_ failure.Blamer  = (*FieldError)(nil)
	_ failure.Fielder = (*FieldError)(nil)
	_ failure.Blamer  = (*TypeError)(nil)
	_ failure.Fielder = (*TypeError)(nil)
)
