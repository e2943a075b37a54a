package imageresolve

import (
	"errors"
	"fmt"
)

// Causes a ValidationError wraps; test for them with errors.Is.
var (
	// ErrMissingField means no layer states a field the reference needs.
	ErrMissingField = errors.New("not set")
	// ErrInvalidReference means the assembled image reference, or a part of
	// it, does not parse. The parser's own error is wrapped beside it.
	ErrInvalidReference = errors.New("invalid image reference")
	// ErrInvalidPullPolicy means the pull policy is not Always, Never or
	// IfNotPresent.
	ErrInvalidPullPolicy = errors.New("invalid pull policy")
)

// Field paths a ValidationError names. The image fields are named as the
// user writes them on the cluster resource, whichever layer supplied the
// value; Source tells which one did.
const (
	// FieldRepo is the image repository.
	FieldRepo = "spec.image.repo"
	// FieldProductVersion is the product version, the tag's first part.
	FieldProductVersion = "spec.image.productVersion"
	// FieldPlatformVersion is the platform version, the tag's last part.
	FieldPlatformVersion = "spec.image.platformVersion"
	// FieldPullPolicy is the image pull policy.
	FieldPullPolicy = "spec.image.pullPolicy"
	// FieldProductName is Options.ProductName, the repository's last segment.
	FieldProductName = "Options.ProductName"
	// FieldPlatformName is Options.PlatformName, the platform in the tag.
	FieldPlatformName = "Options.PlatformName"
)

// ValidationError reports an image that cannot be resolved because of what
// some layer states (or fails to state). It is permanent: resolving the same
// inputs again fails the same way, so a caller should report it where the
// user looks (a condition and an event naming Field) and not retry until the
// inputs change. Detect it with errors.As; Resolve may return several,
// joined with errors.Join.
type ValidationError struct {
	// Field is the path of the offending field, one of the Field constants.
	Field string
	// Value is the offending value; empty when the field is missing.
	Value string
	// Source is the layer Value came from; SourceNone when the field is
	// missing from every layer.
	Source Source
	// Err is the cause: ErrMissingField, ErrInvalidPullPolicy, or
	// ErrInvalidReference joined with the reference parser's error.
	Err error
}

// Error describes the field, the value and where the value came from.
func (e *ValidationError) Error() string {
	if e.Source == SourceNone {
		return fmt.Sprintf("%s: %v in %s, %s or %s",
			e.Field, e.Err, SourceCluster, SourceRole, SourceDefaults)
	}
	from := e.Source.String()
	if e.Source == SourceDefaults || e.Source == SourceOptions {
		// The user cannot see these values in their resource; say so.
		from += ", not the cluster resource"
	}
	return fmt.Sprintf("%s %q (from %s): %v", e.Field, e.Value, from, e.Err)
}

// Unwrap returns the cause.
func (e *ValidationError) Unwrap() error { return e.Err }
