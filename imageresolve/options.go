package imageresolve

import (
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Options is what the operator contributes to resolution. It is usually set
// once, when the reconciler is configured, and read on every resolution so
// that a new operator build's defaults take effect on the next pass.
type Options struct {
	// ProductName is the last path segment of the image repository
	// ("<repo>/<ProductName>:<tag>"). Empty means the operator resolves its
	// images itself: only a custom reference is read, a missing one is not an
	// error, and Resolved.ProductVersion stays empty.
	ProductName string

	// PlatformName names the image platform in the tag:
	// "<productVersion>-<PlatformName><platformVersion>", e.g. "476-opkit0.2.0".
	// Empty means the tag is the product version alone and no layer's
	// platformVersion is read.
	PlatformName string

	// Defaults is the lowest layer, the operator's own image: typically the
	// repository, the product version it was tested with and the platform
	// version it was built with. Its zero value contributes nothing.
	Defaults v1alpha1.ImageSpec
}

// Source names the layer a value came from.
type Source int

const (
	// SourceNone means no layer stated the value.
	SourceNone Source = iota
	// SourceCluster is the cluster resource's spec.image.
	SourceCluster
	// SourceRole is the role declaration's image.
	SourceRole
	// SourceDefaults is Options.Defaults, the operator's own defaults.
	SourceDefaults
	// SourceOptions is another field of Options (ProductName, PlatformName).
	SourceOptions
)

// String describes the source for messages.
func (s Source) String() string {
	switch s {
	case SourceCluster:
		return "the cluster resource's spec.image"
	case SourceRole:
		return "the role declaration's image"
	case SourceDefaults:
		return "the operator's defaults"
	case SourceOptions:
		return "the operator's image options"
	default:
		return "no layer"
	}
}

// layers holds the three image layers, highest precedence first, in the
// order of their Source values.
type layers [3]*v1alpha1.ImageSpec

// str returns the first non-empty value of a string field and its source.
func (l *layers) str(field func(*v1alpha1.ImageSpec) string) (string, Source) {
	for i, spec := range l {
		if spec == nil {
			continue
		}
		if v := field(spec); v != "" {
			return v, Source(i + 1) // SourceCluster, SourceRole, SourceDefaults
		}
	}
	return "", SourceNone
}
