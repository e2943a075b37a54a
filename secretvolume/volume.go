package secretvolume

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// volumeSize is the storage request of a secret volume's claim: the API
// server requires one, and secrets are small.
var volumeSize = resource.MustParse("1Mi")

// volume returns the ephemeral volume of r, which Validate accepted.
func (s *Set) volume(r Request) corev1.Volume {
	annotations := map[string]string{
		s.opts.annotation(secretclassv1alpha1.AnnotationClass): r.Class,
		s.opts.annotation(secretclassv1alpha1.AnnotationScope): scopeOf(r),
	}
	if r.Format != FormatDefault {
		annotations[s.opts.annotation(secretclassv1alpha1.AnnotationFormat)] = string(r.Format)
	}
	if len(r.KerberosServiceNames) > 0 {
		annotations[s.opts.annotation(secretclassv1alpha1.AnnotationKerberosServiceNames)] = strings.Join(r.KerberosServiceNames, ",")
	}
	if r.PKCS12Password != "" {
		annotations[s.opts.annotation(secretclassv1alpha1.AnnotationPKCS12Password)] = r.PKCS12Password
	}
	driver := s.opts.driver()
	return corev1.Volume{Name: r.Name, VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
		VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Annotations: annotations},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				StorageClassName: &driver,
				Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: volumeSize.DeepCopy()}},
			},
		},
	}}}
}

// scopeOf returns the scope annotation of r: its scope, or the pod.
func scopeOf(r Request) string {
	if s := r.Scope.String(); s != "" {
		return s
	}
	return secretclassv1alpha1.ScopePod
}

// validate reports what keeps r from becoming a volume.
func validate(r Request) []error {
	var errs []error
	if msgs := validation.IsDNS1123Label(r.Name); len(msgs) > 0 {
		errs = append(errs, operatorError(r.Name, "", "%q is not a volume name: %s", r.Name, strings.Join(msgs, "; ")))
	}
	if r.Class == "" {
		errs = append(errs, failure.Invalid(r.author(), r.classField(), "the secret class is empty"))
	} else if msgs := validation.IsDNS1123Subdomain(r.Class); len(msgs) > 0 {
		errs = append(errs, failure.Invalid(r.author(), r.classField(), "%q is not a secret class name: %s", r.Class, strings.Join(msgs, "; ")))
	}
	switch r.Format {
	case FormatDefault, FormatTLSPEM, FormatTLSPKCS12, FormatKerberos:
	default:
		errs = append(errs, operatorError(r.Name, "format", "unknown format %q", r.Format))
	}
	if r.Format == FormatKerberos && len(r.KerberosServiceNames) == 0 {
		errs = append(errs, operatorError(r.Name, "kerberosServiceNames", "a keytab needs at least one service name"))
	}
	for _, n := range r.KerberosServiceNames {
		if n == "" || strings.ContainsAny(n, ",/@ ") {
			errs = append(errs, operatorError(r.Name, "kerberosServiceNames", "%q is not a Kerberos service name", n))
		}
	}
	if r.PKCS12Password != "" && r.Format != FormatTLSPKCS12 {
		errs = append(errs, operatorError(r.Name, "pkcs12Password", "a password is only read with format %s", FormatTLSPKCS12))
	}
	if r.Scope != nil {
		for i, svc := range r.Scope.Services {
			if msgs := validation.IsDNS1035Label(svc); len(msgs) > 0 {
				errs = append(errs, scopeError(r, fmt.Sprintf("services[%d]", i), "%q is not a Service name", svc))
			}
		}
		for i, v := range r.Scope.ListenerVolumes {
			if msgs := validation.IsDNS1123Label(v); len(msgs) > 0 {
				errs = append(errs, scopeError(r, fmt.Sprintf("listenerVolumes[%d]", i), "%q is not a volume name", v))
			}
		}
	}
	return errs
}

// operatorError returns an error about member of the operator's request
// of volume: something the operator's code, not the user, got wrong.
func operatorError(volume, member, format string, args ...any) error {
	return failure.Invalid(failure.AuthorOperator, Request{Name: volume}.field(member), format, args...)
}

// scopeError returns an error about member of r's scope.
func scopeError(r Request, member, format string, args ...any) error {
	author := failure.AuthorOperator
	if r.fromVolume {
		author = r.author()
	}
	return failure.Invalid(author, r.scopeField(member), format, args...)
}
