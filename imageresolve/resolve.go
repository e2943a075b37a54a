package imageresolve

import (
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
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

	// ProductVersion is the folded product version, the value of the
	// app.kubernetes.io/version label. It is empty when
	// Options.ProductName is empty, when no layer states a version, or when
	// the version is not a legal label value (a legal tag may be too long
	// for a label; that must cost the label, not the resources).
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

// Resolve folds the cluster resource's image, the role declaration's image
// and opts.Defaults per field, in that order of precedence, and returns the
// image to run. cluster and role may be nil.
//
// A folded custom reference is returned verbatim, unvalidated: it is the
// user's own reference. Otherwise, when opts.ProductName is set, the
// reference is assembled from repo, product name and tag and validated;
// every missing field and the first invalid one are returned as
// *ValidationError values (joined with errors.Join). On error the Resolved
// is the zero value.
func Resolve(opts Options, cluster, role *v1alpha1.ImageSpec) (Resolved, error) {
	l := layers{cluster, role, &opts.Defaults}

	policy, err := l.pullPolicy()
	if err != nil {
		return Resolved{}, err
	}
	secret, _ := l.str(func(s *v1alpha1.ImageSpec) string { return s.PullSecretName })
	out := Resolved{PullPolicy: policy, PullSecretName: secret}

	custom, _ := l.str(func(s *v1alpha1.ImageSpec) string { return s.Custom })
	if opts.ProductName == "" {
		out.Reference = custom
		return out, nil
	}

	version, versionSource := l.str(func(s *v1alpha1.ImageSpec) string { return s.ProductVersion })
	if len(validation.IsValidLabelValue(version)) == 0 {
		out.ProductVersion = version
	}
	if custom != "" {
		out.Reference = custom
		return out, nil
	}

	repo, repoSource := l.str(func(s *v1alpha1.ImageSpec) string { return s.Repo })
	in := parts{
		repo:           value{repo, repoSource},
		productVersion: value{version, versionSource},
	}
	var missing []error
	if repo == "" {
		missing = append(missing, &ValidationError{Field: FieldRepo, Err: ErrMissingField})
	}
	if version == "" {
		missing = append(missing, &ValidationError{Field: FieldProductVersion, Err: ErrMissingField})
	}
	if opts.PlatformName != "" {
		v, src := l.str(func(s *v1alpha1.ImageSpec) string { return s.PlatformVersion })
		if v == "" {
			missing = append(missing, &ValidationError{Field: FieldPlatformVersion, Err: ErrMissingField})
		}
		in.platformVersion = value{v, src}
	}
	if len(missing) > 0 {
		return Resolved{}, errors.Join(missing...)
	}

	ref, err := assemble(opts, in)
	if err != nil {
		return Resolved{}, err
	}
	out.Reference = ref
	return out, nil
}

// pullPolicy folds the pull policy and checks it is one Kubernetes knows.
// The CRD's enum guards the cluster layer; the other layers are code.
func (l *layers) pullPolicy() (corev1.PullPolicy, error) {
	for i, spec := range l {
		if spec == nil || spec.PullPolicy == nil || *spec.PullPolicy == "" {
			continue
		}
		switch p := *spec.PullPolicy; p {
		case corev1.PullAlways, corev1.PullNever, corev1.PullIfNotPresent:
			return p, nil
		default:
			return "", &ValidationError{
				Field: FieldPullPolicy, Value: string(p), Source: Source(i + 1), Err: ErrInvalidPullPolicy,
			}
		}
	}
	return DefaultPullPolicy, nil
}
