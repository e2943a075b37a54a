package configfold

import (
	"errors"
	"fmt"
	"strings"
)

// Layer names where a value came from. The three layers fold in the order
// LayerProduct, LayerRole, LayerRoleGroup; a later layer wins.
type Layer string

const (
	// LayerProduct is what the operator itself supplies: a role's declared
	// config defaults, or the overrides a product contributes.
	LayerProduct Layer = "product"
	// LayerRole is the role's block in the cluster resource
	// (spec.roles.<role>).
	LayerRole Layer = "role"
	// LayerRoleGroup is the role group's block in the cluster resource
	// (spec.roles.<role>.roleGroups.<group>).
	LayerRoleGroup Layer = "roleGroup"
)

// Sentinel causes a FieldError wraps, for errors.Is.
var (
	// ErrUnknownField means a field is not part of the Kubernetes type it
	// was decoded into, usually a misspelling.
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicateField means a field is stated twice in one object.
	ErrDuplicateField = errors.New("duplicate field")
	// ErrMalformed means a value is not valid JSON or has the wrong type.
	ErrMalformed = errors.New("malformed value")
	// ErrInvalidValue means a value decodes but is not acceptable, such as
	// a negative duration.
	ErrInvalidValue = errors.New("invalid value")
)

// FieldError says which field a user got wrong, in which layer. It is the
// error type of everything in this package that judges user input, so a
// caller can turn it into a condition and an event naming the field the user
// wrote.
type FieldError struct {
	// Layer is where the field was written; empty when the caller did not
	// say (DecodeAffinity on its own does not know its layer).
	Layer Layer
	// Field is the dotted path of the field. Within a layer it is relative
	// to the role or role-group spec, for example
	// "config.affinity.nodeAffinty" or "podOverrides.spec.containres".
	// DecodeAffinity alone reports it relative to the affinity value.
	Field string
	// Err is the cause; it wraps one of the Err* sentinels.
	Err error
}

// Error implements error.
func (e *FieldError) Error() string {
	var b strings.Builder
	if e.Layer != "" {
		b.WriteString(string(e.Layer))
		b.WriteString(" ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// SpecPath returns the field's path in a cluster resource for a role and a
// role group, such as "spec.roles.server.roleGroups.default.config.affinity".
// For LayerProduct, which no user wrote, it is prefixed with "defaults of
// role <role>" instead, so a message still says where to look.
func (e *FieldError) SpecPath(role, group string) string {
	var prefix string
	switch e.Layer {
	case LayerRole:
		prefix = "spec.roles." + role
	case LayerRoleGroup:
		prefix = "spec.roles." + role + ".roleGroups." + group
	case LayerProduct:
		prefix = "defaults of role " + role + ":"
		if e.Field == "" {
			return prefix
		}
		return prefix + " " + e.Field
	}
	switch {
	case prefix == "":
		return e.Field
	case e.Field == "":
		return prefix
	}
	return prefix + "." + e.Field
}

// withLayer returns a copy of the FieldErrors in err placed in a layer,
// their paths prefixed with field. Errors of other types become a
// FieldError on field itself.
func withLayer(err error, layer Layer, field string) error {
	if err == nil {
		return nil
	}
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]error, 0, len(errs))
	for _, e := range errs {
		var fe *FieldError
		if errors.As(e, &fe) {
			path := field
			if fe.Field != "" {
				path = field + "." + fe.Field
			}
			out = append(out, &FieldError{Layer: layer, Field: path, Err: fe.Err})
			continue
		}
		out = append(out, &FieldError{Layer: layer, Field: field, Err: e})
	}
	return errors.Join(out...)
}

// TypeError says why a product's config type cannot be folded by
// FoldProduct. It is a programming error in the operator, not a user error.
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
