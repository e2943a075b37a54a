package imageresolve

import (
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
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

// Fields a ValidationError names, relative to its layer. The image fields
// are named as written in an ImageSpec; the other two are Options fields.
const (
	// FieldRepo is the image repository.
	FieldRepo = "image.repo"
	// FieldProductVersion is the product version, the tag's first part.
	FieldProductVersion = "image.productVersion"
	// FieldPlatformVersion is the platform version, the tag's last part.
	FieldPlatformVersion = "image.platformVersion"
	// FieldPullPolicy is the image pull policy.
	FieldPullPolicy = "image.pullPolicy"
	// FieldProductName is Options.ProductName, the repository's last segment.
	FieldProductName = "productName"
	// FieldPlatformName is Options.PlatformName, the platform in the tag.
	FieldPlatformName = "platformName"
)

// ValidationError reports an image that cannot be resolved because of what
// some layer states (or fails to state). It belongs to the class
// failure.ErrInvalid: resolving the same inputs again fails the same way, so
// a caller reports it where its author looks (Blame, FieldPath) and does not
// retry until the inputs change. Resolve may return several, joined with
// errors.Join.
type ValidationError struct {
	// Field is the offending field relative to its layer, one of the Field
	// constants.
	Field string
	// Value is the offending value; empty when the field is missing.
	Value string
	// Layer is the layer Value came from: v1alpha1.LayerCluster,
	// LayerDeclaration or LayerDefaults (Options, including ProductName and
	// PlatformName). Empty when the field is missing from every layer.
	Layer v1alpha1.Layer
	// RoleName is the role whose declaration was read, for the
	// declaration's field paths.
	RoleName string
	// Err is the cause: ErrMissingField, ErrInvalidPullPolicy, or
	// ErrInvalidReference joined with the reference parser's error.
	Err error
}

// FieldPath returns the absolute path of the field in its layer:
// "spec.image.productVersion" for the cluster resource,
// "roles[<role>].image.productVersion" for the role declaration,
// "defaults.image.productVersion" or "defaults.productName" for the
// operator's options. A missing field is named where the user can set it,
// "spec.image.<field>".
func (e *ValidationError) FieldPath() string {
	layer := e.Layer
	if layer == "" {
		layer = v1alpha1.LayerCluster
	}
	return layer.FieldPath(e.RoleName, "", e.Field)
}

// Blame returns the author of the layer the value came from: the user for
// the cluster resource, the operator for the declaration and the defaults.
// A missing field is the user's to set: every layer was consulted, and
// spec.image is the one the cluster resource's author controls.
func (e *ValidationError) Blame() failure.Author {
	if e.Layer == "" {
		return failure.AuthorUser
	}
	return e.Layer.Author()
}

// Is reports the class failure.ErrInvalid.
func (e *ValidationError) Is(target error) bool { return target == failure.ErrInvalid }

// Error describes the field, the value and where the value came from. A
// value the user cannot see in their resource says so, and for an image
// field says which spec.image field overrides it.
func (e *ValidationError) Error() string {
	if e.Layer == "" {
		return fmt.Sprintf("%s: %v in the cluster resource's spec.image, the role declaration's image or the operator's defaults",
			e.FieldPath(), e.Err)
	}
	var from string
	switch {
	case e.Layer == v1alpha1.LayerCluster:
		return fmt.Sprintf("%s %q: %v", e.FieldPath(), e.Value, e.Err)
	case e.Field == FieldProductName || e.Field == FieldPlatformName:
		from = " (from the operator's image options, not the cluster resource)"
	case e.Layer == v1alpha1.LayerDeclaration:
		from = fmt.Sprintf(" (from the operator's role declaration, not the cluster resource; spec.%s overrides it)", e.Field)
	default:
		from = fmt.Sprintf(" (from the operator's defaults, not the cluster resource; spec.%s overrides it)", e.Field)
	}
	return fmt.Sprintf("%s %q%s: %v", e.FieldPath(), e.Value, from, e.Err)
}

// Unwrap returns the cause.
func (e *ValidationError) Unwrap() error { return e.Err }

// Compile-time checks that ValidationError says its author and field.
var (
	_ failure.Blamer  = (*ValidationError)(nil)
	_ failure.Fielder = (*ValidationError)(nil)
)
