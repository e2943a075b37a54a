package imageresolve

import (
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Options is what the operator contributes to resolution: the lowest layer,
// v1alpha1.LayerDefaults. It is usually set once, when the reconciler
// is configured, and read on every resolution so that a new operator build's
// defaults take effect on the next pass. The zero value resolves nothing but
// a custom reference, the pull policy and the pull secret.
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

	// Defaults is the operator's own image: typically the repository, the
	// product version it was tested with and the platform version it was
	// built with. Its zero value contributes nothing.
	Defaults v1alpha1.ImageSpec
}

// Layers are the image layers above Options.Defaults. Resolve folds them
// lowest precedence first: Options.Defaults, then Declaration, then
// Cluster. The zero value states nothing.
type Layers struct {
	// RoleName is the role whose declaration Declaration is; it names the
	// declaration's fields in errors ("roles[<RoleName>].image.repo") and is
	// required when Declaration is set.
	RoleName string
	// Declaration is the image the operator declares for the role
	// (v1alpha1.LayerDeclaration); nil when it declares none.
	Declaration *v1alpha1.ImageSpec
	// Cluster is the cluster resource's spec.image
	// (v1alpha1.LayerCluster), the user's; nil when unset. The
	// highest layer.
	Cluster *v1alpha1.ImageSpec
}

// stated is one layer's image.
type stated struct {
	layer v1alpha1.Layer
	spec  *v1alpha1.ImageSpec
}

// stack holds the stated image layers in the order they are consulted,
// highest precedence first. It is an array, not a slice, so a resolution
// allocates nothing for it.
type stack struct {
	layers [3]stated
	n      int
}

// newStack stacks the stated layers, the highest on top: the cluster, the
// declaration, the defaults.
func newStack(opts *Options, in Layers) stack {
	var s stack
	for _, l := range [3]stated{
		{v1alpha1.LayerCluster, in.Cluster},
		{v1alpha1.LayerDeclaration, in.Declaration},
		{v1alpha1.LayerDefaults, &opts.Defaults},
	} {
		if l.spec != nil {
			s.layers[s.n] = l
			s.n++
		}
	}
	return s
}

// highestFirst returns the stated layers, highest precedence first.
func (s *stack) highestFirst() []stated { return s.layers[:s.n] }

// str returns the value of a string field from the highest layer stating
// it (non-empty), with that layer; the zero value when none does.
func (s *stack) str(field func(*v1alpha1.ImageSpec) string) value {
	for _, l := range s.highestFirst() {
		if v := field(l.spec); v != "" {
			return value{v: v, layer: l.layer}
		}
	}
	return value{}
}

// decider returns the highest layer that names the image: one stating
// custom, repo, productVersion or (when the operator names a platform)
// platformVersion. The pull policy and the pull secret do not name it.
func (s *stack) decider(opts *Options) (stated, bool) {
	for _, l := range s.highestFirst() {
		if l.spec.Custom != "" || l.spec.Repo != "" || l.spec.ProductVersion != "" ||
			(opts.PlatformName != "" && l.spec.PlatformVersion != "") {
			return l, true
		}
	}
	return stated{}, false
}
