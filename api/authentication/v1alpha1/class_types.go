package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ProviderKind names the kind of an authentication provider.
type ProviderKind string

// The provider kinds.
const (
	// ProviderTLS authenticates with TLS client certificates.
	ProviderTLS ProviderKind = "tls"
	// ProviderLDAP authenticates against an LDAP directory.
	ProviderLDAP ProviderKind = "ldap"
	// ProviderOIDC authenticates with an OpenID Connect provider.
	ProviderOIDC ProviderKind = "oidc"
	// ProviderKerberos authenticates with Kerberos.
	ProviderKerberos ProviderKind = "kerberos"
)

// AuthenticationClassSpec is one way of authenticating users.
type AuthenticationClassSpec struct {
	// Provider is the authentication provider.
	Provider Provider `json:"provider"`
}

// Provider is exactly one authentication provider.
//
// +kubebuilder:validation:XValidation:rule="[has(self.tls), has(self.ldap), has(self.oidc), has(self.kerberos)].filter(x, x).size() == 1",message="set exactly one provider: tls, ldap, oidc or kerberos"
type Provider struct {
	// TLS authenticates clients by their certificates.
	// +optional
	TLS *TLSProvider `json:"tls,omitempty"`

	// LDAP authenticates against a directory.
	// +optional
	LDAP *LDAPProvider `json:"ldap,omitempty"`

	// OIDC authenticates with an OpenID Connect provider.
	// +optional
	OIDC *OIDCProvider `json:"oidc,omitempty"`

	// Kerberos authenticates with Kerberos.
	// +optional
	Kerberos *KerberosProvider `json:"kerberos,omitempty"`
}

// Kind returns the kind of the provider that is set, or "" when none is.
func (p *Provider) Kind() ProviderKind {
	switch {
	case p.TLS != nil:
		return ProviderTLS
	case p.LDAP != nil:
		return ProviderLDAP
	case p.OIDC != nil:
		return ProviderOIDC
	case p.Kerberos != nil:
		return ProviderKerberos
	}
	return ""
}

// AuthenticationClass is a cluster-wide way of authenticating users that
// products refer to by name.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=authclass
type AuthenticationClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the provider.
	Spec AuthenticationClassSpec `json:"spec"`
}

// AuthenticationClassList is a list of AuthenticationClass.
//
// +kubebuilder:object:root=true
type AuthenticationClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the classes.
	Items []AuthenticationClass `json:"items"`
}
