package v1alpha1

import secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"

// TLSProvider authenticates clients by their TLS certificates.
type TLSProvider struct {
	// ClientCertSecretClass is the secret class whose CA signs the client
	// certificates that are accepted. Unset means a client certificate is
	// checked against the server's own secret class.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ClientCertSecretClass *string `json:"clientCertSecretClass,omitempty"`
}

// LDAPProvider authenticates users against an LDAP directory.
type LDAPProvider struct {
	// Hostname is the directory server's DNS name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Hostname string `json:"hostname"`

	// Port is the server's port. Unset means 636 with TLS, 389 without.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// SearchBase is the subtree users are searched in.
	// +optional
	SearchBase string `json:"searchBase,omitempty"`

	// SearchFilter narrows the search, such as "(memberOf=cn=analysts)".
	// +optional
	SearchFilter string `json:"searchFilter,omitempty"`

	// FieldNames maps user attributes to the directory's attribute names.
	// +optional
	FieldNames *LDAPFieldNames `json:"ldapFieldNames,omitempty"`

	// BindCredentials is the secret class providing the bind user (files
	// user and password). Unset means an anonymous bind.
	// +optional
	BindCredentials *secretclassv1alpha1.Volume `json:"bindCredentials,omitempty"`

	// TLS encrypts the connection. Unset means plain LDAP.
	// +optional
	TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
}

// LDAPFieldNames names the directory attributes of a user. Unset fields
// take the usual names.
type LDAPFieldNames struct {
	// UID is the login name's attribute. Unset means "uid".
	// +optional
	UID string `json:"uid,omitempty"`
	// Group is the group membership attribute. Unset means "memberof".
	// +optional
	Group string `json:"group,omitempty"`
	// GivenName is the first name's attribute. Unset means "givenName".
	// +optional
	GivenName string `json:"givenName,omitempty"`
	// Surname is the last name's attribute. Unset means "sn".
	// +optional
	Surname string `json:"surname,omitempty"`
	// Email is the mail address's attribute. Unset means "mail".
	// +optional
	Email string `json:"email,omitempty"`
}

// OIDCProvider authenticates users with an OpenID Connect provider.
type OIDCProvider struct {
	// Hostname is the provider's DNS name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Hostname string `json:"hostname"`

	// Port is the provider's port. Unset means 443 with TLS, 80 without.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// RootPath is the path of the issuer on the host, such as
	// "/realms/opkit". Unset means "/".
	// +optional
	// +kubebuilder:validation:Pattern=`^/`
	RootPath string `json:"rootPath,omitempty"`

	// Scopes are requested from every client of this class.
	// +optional
	// +listType=set
	Scopes []string `json:"scopes,omitempty"`

	// PrincipalClaim is the token claim holding the user's name, such as
	// "preferred_username".
	// +kubebuilder:validation:MinLength=1
	PrincipalClaim string `json:"principalClaim"`

	// TLS encrypts the connection. Unset means plain HTTP.
	// +optional
	TLS *secretclassv1alpha1.TLS `json:"tls,omitempty"`
}

// KerberosProvider authenticates users with Kerberos.
type KerberosProvider struct {
	// KerberosSecretClass is the secret class issuing keytabs in the realm
	// users authenticate in.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	KerberosSecretClass string `json:"kerberosSecretClass"`
}
