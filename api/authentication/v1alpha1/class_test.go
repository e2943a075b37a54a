package v1alpha1_test

import (
	"testing"

	"github.com/opkit-dev/opkit/api/authentication/v1alpha1"
)

func TestProviderKind(t *testing.T) {
	tests := []struct {
		p    v1alpha1.Provider
		want v1alpha1.ProviderKind
	}{
		{v1alpha1.Provider{}, ""},
		{v1alpha1.Provider{TLS: &v1alpha1.TLSProvider{}}, v1alpha1.ProviderTLS},
		{v1alpha1.Provider{LDAP: &v1alpha1.LDAPProvider{}}, v1alpha1.ProviderLDAP},
		{v1alpha1.Provider{OIDC: &v1alpha1.OIDCProvider{}}, v1alpha1.ProviderOIDC},
		{v1alpha1.Provider{Kerberos: &v1alpha1.KerberosProvider{}}, v1alpha1.ProviderKerberos},
	}
	for _, tt := range tests {
		if got := tt.p.Kind(); got != tt.want {
			t.Errorf("Kind of %+v = %q, want %q", tt.p, got, tt.want)
		}
	}
}
