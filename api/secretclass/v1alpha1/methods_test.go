package v1alpha1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

func TestScopeEntries(t *testing.T) {
	tests := []struct {
		name  string
		scope *v1alpha1.Scope
		want  []string
	}{
		{"nil", nil, nil},
		{"empty", &v1alpha1.Scope{}, nil},
		{"every kind, in a fixed order", &v1alpha1.Scope{
			ListenerVolumes: []string{"listener"}, Services: []string{"web", "api"}, Node: true, Pod: true},
			[]string{"pod", "node", "service=web", "service=api", "listener-volume=listener"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.scope.Entries()); diff != "" {
				t.Errorf("Entries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTLSAnswers(t *testing.T) {
	server := func(ca v1alpha1.CACert) *v1alpha1.TLS {
		return &v1alpha1.TLS{Verification: &v1alpha1.TLSVerification{Server: &v1alpha1.ServerVerification{CACert: ca}}}
	}
	type answers struct {
		Enabled, Verified bool
		CA                string
	}
	tests := []struct {
		name string
		tls  *v1alpha1.TLS
		want answers
	}{
		{"no TLS", nil, answers{}},
		{"TLS without verification", &v1alpha1.TLS{}, answers{Enabled: true}},
		{"verification none", &v1alpha1.TLS{Verification: &v1alpha1.TLSVerification{None: &v1alpha1.NoVerification{}}}, answers{Enabled: true}},
		{"web PKI", server(v1alpha1.CACert{WebPKI: &v1alpha1.WebPKI{}}), answers{Enabled: true, Verified: true}},
		{"CA from a secret class", server(v1alpha1.CACert{SecretClass: ptr.To("tls")}), answers{Enabled: true, Verified: true, CA: "tls"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answers{tt.tls.Enabled(), tt.tls.Verified(), tt.tls.CASecretClass()}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnnotationsLiveUnderTheDriver(t *testing.T) {
	for _, key := range []string{v1alpha1.AnnotationClass, v1alpha1.AnnotationScope, v1alpha1.AnnotationFormat,
		v1alpha1.AnnotationKerberosServiceNames, v1alpha1.AnnotationPKCS12Password} {
		if len(key) <= len(v1alpha1.Driver)+1 || key[:len(v1alpha1.Driver)+1] != v1alpha1.Driver+"/" {
			t.Errorf("annotation %q is not under the driver %q", key, v1alpha1.Driver)
		}
	}
}
