package authentication

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/secretvolume"
)

// Files of an LDAP bind credentials volume.
const (
	// BindUserFile holds the bind user's name (DN).
	BindUserFile = "user"
	// BindPasswordFile holds the bind user's password.
	BindPasswordFile = "password"
)

// Wiring is what a product writes for one class.
type Wiring struct {
	// TLS is set for a TLS class.
	TLS *TLSWiring
	// LDAP is set for an LDAP class.
	LDAP *LDAPWiring
	// OIDC is set for an OIDC class.
	OIDC *OIDCWiring
	// Kerberos is set for a Kerberos class.
	Kerberos *KerberosWiring
}

// TLSWiring is a TLS client certificate class.
type TLSWiring struct {
	// ClientCAFile is the mounted CA client certificates must be signed by;
	// empty when the class names no secret class (the server's own CA
	// applies).
	ClientCAFile string
}

// LDAPWiring is an LDAP class.
type LDAPWiring struct {
	// URL is "ldap(s)://host:port".
	URL string
	// SearchBase and SearchFilter are the class's.
	SearchBase, SearchFilter string
	// FieldNames are the class's attribute names, defaulted.
	FieldNames authenticationv1alpha1.LDAPFieldNames
	// BindUserFile and BindPasswordFile are the mounted bind credentials;
	// empty for an anonymous bind.
	BindUserFile, BindPasswordFile string
	// CAFile is the mounted CA the server is checked against; empty unless
	// the class names a secret class for it.
	CAFile string
}

// OIDCWiring is an OIDC class and the product's client of it.
type OIDCWiring struct {
	// IssuerURL is "http(s)://host:port/rootPath".
	IssuerURL string
	// Scopes are the class's and the product's, sorted, each once.
	Scopes []string
	// PrincipalClaim is the class's.
	PrincipalClaim string
	// Env reads the client ID and secret from the product's Secret.
	Env []corev1.EnvVar
	// CAFile is the mounted CA the provider is checked against; empty
	// unless the class names a secret class for it.
	CAFile string
}

// KerberosWiring is a Kerberos class.
type KerberosWiring struct {
	// SecretClass issues the keytabs (see secretvolume.Kerberos).
	SecretClass string
}

// Environment variables OIDCWiring.Env sets.
const (
	EnvOIDCClientID     = "OIDC_CLIENT_ID"
	EnvOIDCClientSecret = "OIDC_CLIENT_SECRET"
)

// Wire adds the class's secret volumes to set, named "<prefix>-…", and
// returns what the product writes. The volumes' classes are blamed on the
// user's fields of the class.
func (c *Class) Wire(set *secretvolume.Set, prefix string) Wiring {
	p := &c.Provider
	at := "AuthenticationClass " + c.Name + " spec.provider"
	var w Wiring
	switch c.Kind() {
	case authenticationv1alpha1.ProviderTLS:
		w.TLS = &TLSWiring{}
		if cls := p.TLS.ClientCertSecretClass; cls != nil {
			vol := prefix + "-client-ca"
			set.Add(secretvolume.TLS(vol, *cls, nil).From(failure.AuthorUser, at+".tls.clientCertSecretClass"))
			w.TLS.ClientCAFile = set.File(vol, secretvolume.CACertFile)
		}
	case authenticationv1alpha1.ProviderLDAP:
		l := p.LDAP
		w.LDAP = &LDAPWiring{URL: url(ldapScheme(l.TLS), l.Hostname, l.Port, ldapPort(l.TLS), ""),
			SearchBase: l.SearchBase, SearchFilter: l.SearchFilter, FieldNames: fieldNames(l.FieldNames)}
		if b := l.BindCredentials; b != nil {
			vol := prefix + "-bind"
			set.Add(secretvolume.Credentials(vol, *b).From(failure.AuthorUser, at+".ldap.bindCredentials"))
			w.LDAP.BindUserFile, w.LDAP.BindPasswordFile = set.File(vol, BindUserFile), set.File(vol, BindPasswordFile)
		}
		w.LDAP.CAFile = addCA(set, prefix, l.TLS, at+".ldap.tls.verification.server.caCert.secretClass")
	case authenticationv1alpha1.ProviderOIDC:
		o := p.OIDC
		scheme, def := "http", int32(80)
		if o.TLS.Enabled() {
			scheme, def = "https", 443
		}
		scopes := slices.Concat(o.Scopes, c.Reference.OIDC.ExtraScopes)
		slices.Sort(scopes)
		w.OIDC = &OIDCWiring{
			IssuerURL: url(scheme, o.Hostname, o.Port, def, o.RootPath), Scopes: slices.Compact(scopes), PrincipalClaim: o.PrincipalClaim,
			Env: []corev1.EnvVar{
				secretEnv(EnvOIDCClientID, c.Reference.OIDC.ClientCredentialsSecret, authenticationv1alpha1.ClientIDKey),
				secretEnv(EnvOIDCClientSecret, c.Reference.OIDC.ClientCredentialsSecret, authenticationv1alpha1.ClientSecretKey),
			},
			CAFile: addCA(set, prefix, o.TLS, at+".oidc.tls.verification.server.caCert.secretClass"),
		}
	case authenticationv1alpha1.ProviderKerberos:
		w.Kerberos = &KerberosWiring{SecretClass: p.Kerberos.KerberosSecretClass}
	}
	return w
}

// addCA adds the CA volume of tls when it names a secret class, returning
// the CA file.
func addCA(set *secretvolume.Set, prefix string, tls *secretclassv1alpha1.TLS, field string) string {
	cls := tls.CASecretClass()
	if cls == "" {
		return ""
	}
	vol := prefix + "-ca"
	set.Add(secretvolume.TLS(vol, cls, nil).From(failure.AuthorUser, field))
	return set.File(vol, secretvolume.CACertFile)
}

func ldapScheme(tls *secretclassv1alpha1.TLS) string {
	if tls.Enabled() {
		return "ldaps"
	}
	return "ldap"
}

func ldapPort(tls *secretclassv1alpha1.TLS) int32 {
	if tls.Enabled() {
		return 636
	}
	return 389
}

func url(scheme, host string, port *int32, def int32, path string) string {
	p := def
	if port != nil {
		p = *port
	}
	return fmt.Sprintf("%s://%s:%d%s", scheme, host, p, strings.TrimSuffix(path, "/"))
}

// fieldNames returns names with its unset fields defaulted.
func fieldNames(names *authenticationv1alpha1.LDAPFieldNames) authenticationv1alpha1.LDAPFieldNames {
	out := authenticationv1alpha1.LDAPFieldNames{UID: "uid", Group: "memberof", GivenName: "givenName", Surname: "sn", Email: "mail"}
	if names == nil {
		return out
	}
	for _, f := range []struct{ from, to *string }{
		{&names.UID, &out.UID}, {&names.Group, &out.Group}, {&names.GivenName, &out.GivenName},
		{&names.Surname, &out.Surname}, {&names.Email, &out.Email},
	} {
		if *f.from != "" {
			*f.to = *f.from
		}
	}
	return out
}

func secretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}}
}
