package imageresolve

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// DefaultPullPolicy is the pull policy when no layer states one.
const DefaultPullPolicy = corev1.PullIfNotPresent

// Resolved is the outcome of a resolution.
type Resolved struct {
	// Reference is the image reference for the product's containers. It is
	// empty only when Options.ProductName is empty and no layer states a
	// custom reference: the operator then chooses its images itself.
	Reference string

	// PullPolicy is the folded pull policy, DefaultPullPolicy when no layer
	// states one.
	PullPolicy corev1.PullPolicy

	// PullSecretName is the folded pull secret, empty for none. It is
	// resolved on every path, custom references included, because it
	// belongs to where the image lives rather than to how it is named.
	PullSecretName string

	// ProductVersion is the version of the image in Reference, the value of
	// the app.kubernetes.io/version label. For an assembled reference it is
	// the folded product version, the start of the tag; for a custom
	// reference it is the productVersion stated beside custom in the same
	// layer, and empty when that layer states none. It is also empty when
	// Options.ProductName is empty, and when the version is not a legal label
	// value (a legal tag may be too long for a label; that must cost the
	// label, not the resources).
	ProductVersion string
}

// ImagePullSecrets returns the pull secret as a pod's imagePullSecrets
// entries, nil when there is none.
func (r Resolved) ImagePullSecrets() []corev1.LocalObjectReference {
	if r.PullSecretName == "" {
		return nil
	}
	return []corev1.LocalObjectReference{{Name: r.PullSecretName}}
}

// Resolve folds the image layers lowest precedence first (opts.Defaults,
// then in.Declaration, then in.Cluster) and returns the image to run.
//
// The pull policy and the pull secret fold per field on every path. The
// image itself is decided by the highest layer that names it, that is
// states custom, repo, productVersion or (with opts.PlatformName set)
// platformVersion:
//
//   - when that layer states custom, the custom reference is used verbatim
//     and unvalidated, and the version is the productVersion that layer
//     states beside it (none if it states none);
//   - otherwise the reference is assembled from repo, opts.ProductName and
//     the tag, each field folded per field over all layers, and validated.
//     A custom reference in a lower layer is not used: a user who states
//     any image field in spec.image is never overruled by a reference the
//     operator declared, and the version always describes the image used.
//
// Every missing field and the first invalid one are returned as
// *ValidationError values (joined with errors.Join); a Declaration without
// in.RoleName is a *failure.InvalidError blamed on the operator. On error
// the Resolved is the zero value. With opts.ProductName empty only custom
// is read (the highest one), and that path never fails on the image.
func Resolve(opts Options, in Layers) (Resolved, error) {
	if in.Declaration != nil && in.RoleName == "" {
		return Resolved{}, failure.Invalid(failure.AuthorOperator, "imageresolve.Layers.RoleName",
			"the role name is required to name the fields of the role declaration's image")
	}
	s := newStack(&opts, in)
	policy, err := s.pullPolicy(in.RoleName)
	if err != nil {
		return Resolved{}, err
	}
	out := Resolved{
		PullPolicy:     policy,
		PullSecretName: s.str(func(i *v1alpha1.ImageSpec) string { return i.PullSecretName }).v,
	}
	if opts.ProductName == "" {
		out.Reference = s.str(func(i *v1alpha1.ImageSpec) string { return i.Custom }).v
		return out, nil
	}
	if decider, ok := s.decider(&opts); ok && decider.spec.Custom != "" {
		out.Reference = decider.spec.Custom
		out.ProductVersion = labelValue(decider.spec.ProductVersion)
		return out, nil
	}

	named := parts{
		role:           in.RoleName,
		repo:           s.str(func(i *v1alpha1.ImageSpec) string { return i.Repo }),
		productVersion: s.str(func(i *v1alpha1.ImageSpec) string { return i.ProductVersion }),
	}
	if opts.PlatformName != "" {
		named.platformVersion = s.str(func(i *v1alpha1.ImageSpec) string { return i.PlatformVersion })
	}
	if err := missing(opts, named); err != nil {
		return Resolved{}, err
	}
	ref, err := assemble(opts, named)
	if err != nil {
		return Resolved{}, err
	}
	out.Reference = ref
	out.ProductVersion = labelValue(named.productVersion.v)
	return out, nil
}

// missing reports every field the assembled reference needs and no layer
// states.
func missing(opts Options, in parts) error {
	var errs []error
	if in.repo.v == "" {
		errs = append(errs, &ValidationError{Field: FieldRepo, Err: ErrMissingField})
	}
	if in.productVersion.v == "" {
		errs = append(errs, &ValidationError{Field: FieldProductVersion, Err: ErrMissingField})
	}
	if opts.PlatformName != "" && in.platformVersion.v == "" {
		errs = append(errs, &ValidationError{Field: FieldPlatformVersion, Err: ErrMissingField})
	}
	return errors.Join(errs...)
}

// labelValue returns v when it is a legal label value, "" otherwise.
func labelValue(v string) string {
	if len(validation.IsValidLabelValue(v)) != 0 {
		return ""
	}
	return v
}

// pullPolicy folds the pull policy and checks it is one Kubernetes knows.
// The CRD's enum guards the cluster layer; the other layers are code.
func (s *stack) pullPolicy(role string) (corev1.PullPolicy, error) {
	for _, l := range s.highestFirst() {
		p := l.spec.PullPolicy
		if p == nil || *p == "" {
			continue
		}
		switch *p {
		case corev1.PullAlways, corev1.PullNever, corev1.PullIfNotPresent:
			return *p, nil
		default:
			return "", &ValidationError{
				Field: FieldPullPolicy, Value: string(*p), Layer: l.layer, RoleName: role, Err: ErrInvalidPullPolicy,
			}
		}
	}
	return DefaultPullPolicy, nil
}
