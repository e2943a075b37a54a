package servertest_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
)

func TestAuthenticationClassAdmission(t *testing.T) {
	cp := env.Require(t)
	class := func(name string, p authenticationv1alpha1.Provider) *authenticationv1alpha1.AuthenticationClass {
		return &authenticationv1alpha1.AuthenticationClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: authenticationv1alpha1.AuthenticationClassSpec{Provider: p}}
	}
	ldap := &authenticationv1alpha1.LDAPProvider{Hostname: "ldap.example.com", SearchBase: "ou=users,dc=example,dc=com"}
	checkAdmission(t, t.Context(), cp.Client, []admission{
		{name: "ldap", obj: class("ldap", authenticationv1alpha1.Provider{LDAP: ldap})},
		{name: "tls", obj: class("tls", authenticationv1alpha1.Provider{TLS: &authenticationv1alpha1.TLSProvider{ClientCertSecretClass: ptr.To("client-ca")}})},
		{name: "oidc", obj: class("oidc", authenticationv1alpha1.Provider{OIDC: &authenticationv1alpha1.OIDCProvider{
			Hostname: "keycloak.example.com", RootPath: "/realms/opkit", PrincipalClaim: "preferred_username"}})},
		{name: "kerberos", obj: class("kerberos", authenticationv1alpha1.Provider{Kerberos: &authenticationv1alpha1.KerberosProvider{KerberosSecretClass: "kerberos"}})},
		{name: "no provider", obj: class("none", authenticationv1alpha1.Provider{}),
			refused: []string{"spec.provider"}, text: "set exactly one provider"},
		{name: "two providers", obj: class("two", authenticationv1alpha1.Provider{LDAP: ldap,
			Kerberos: &authenticationv1alpha1.KerberosProvider{KerberosSecretClass: "kerberos"}}),
			refused: []string{"spec.provider"}, text: "set exactly one provider"},
		{name: "relative OIDC root path", obj: class("relative", authenticationv1alpha1.Provider{OIDC: &authenticationv1alpha1.OIDCProvider{
			Hostname: "keycloak.example.com", RootPath: "realms/opkit", PrincipalClaim: "sub"}}),
			refused: []string{"spec.provider.oidc.rootPath"}, text: "should match"},
	})
}
