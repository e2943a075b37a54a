package authentication_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/authentication"
	"github.com/opkit-dev/opkit/secretvolume"
)

func caClass(class string) *secretclassv1alpha1.TLS {
	return &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
		Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To(class)}}}}
}

func secretRef(secret, key string) *corev1.EnvVarSource {
	return &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}
}

func TestWire(t *testing.T) {
	tests := []struct {
		name    string
		class   authentication.Class
		want    authentication.Wiring
		volumes []string
	}{
		{
			name:    "TLS client certificates of a secret class",
			class:   authentication.Class{Name: "mtls", Provider: authenticationv1alpha1.Provider{TLS: &authenticationv1alpha1.TLSProvider{ClientCertSecretClass: ptr.To("client-ca")}}},
			want:    authentication.Wiring{TLS: &authentication.TLSWiring{ClientCAFile: "/opkit/secret/auth-0-client-ca/ca.crt"}},
			volumes: []string{"auth-0-client-ca=client-ca"},
		},
		{
			name: "LDAP over TLS with bind credentials",
			class: authentication.Class{Name: "ldap", Provider: authenticationv1alpha1.Provider{LDAP: &authenticationv1alpha1.LDAPProvider{
				Hostname: "ldap.example.com", SearchBase: "ou=users,dc=example,dc=com",
				FieldNames:      &authenticationv1alpha1.LDAPFieldNames{UID: "sAMAccountName"},
				BindCredentials: &secretclassv1alpha1.Volume{SecretClass: "ldap-bind"}, TLS: caClass("ldap-ca"),
			}}},
			want: authentication.Wiring{LDAP: &authentication.LDAPWiring{
				URL: "ldaps://ldap.example.com:636", SearchBase: "ou=users,dc=example,dc=com",
				FieldNames:   authenticationv1alpha1.LDAPFieldNames{UID: "sAMAccountName", Group: "memberof", GivenName: "givenName", Surname: "sn", Email: "mail"},
				BindUserFile: "/opkit/secret/auth-0-bind/user", BindPasswordFile: "/opkit/secret/auth-0-bind/password",
				CAFile: "/opkit/secret/auth-0-ca/ca.crt",
			}},
			volumes: []string{"auth-0-bind=ldap-bind", "auth-0-ca=ldap-ca"},
		},
		{
			name: "OIDC with the product's client and extra scopes",
			class: authentication.Class{Name: "keycloak",
				Provider: authenticationv1alpha1.Provider{OIDC: &authenticationv1alpha1.OIDCProvider{
					Hostname: "keycloak.example.com", RootPath: "/realms/opkit/", Scopes: []string{"openid", "email"},
					PrincipalClaim: "preferred_username", TLS: &secretclassv1alpha1.TLS{}}},
				Reference: authenticationv1alpha1.ClassReference{AuthenticationClass: "keycloak",
					OIDC: &authenticationv1alpha1.OIDCClientOptions{ClientCredentialsSecret: "trino-oidc", ExtraScopes: []string{"groups", "openid"}}}},
			want: authentication.Wiring{OIDC: &authentication.OIDCWiring{
				IssuerURL: "https://keycloak.example.com:443/realms/opkit", Scopes: []string{"email", "groups", "openid"},
				PrincipalClaim: "preferred_username",
				Env: []corev1.EnvVar{
					{Name: "OIDC_CLIENT_ID", ValueFrom: secretRef("trino-oidc", "clientId")},
					{Name: "OIDC_CLIENT_SECRET", ValueFrom: secretRef("trino-oidc", "clientSecret")},
				},
			}},
		},
		{
			name:  "Kerberos",
			class: authentication.Class{Name: "kdc", Provider: authenticationv1alpha1.Provider{Kerberos: &authenticationv1alpha1.KerberosProvider{KerberosSecretClass: "kerberos"}}},
			want:  authentication.Wiring{Kerberos: &authentication.KerberosWiring{SecretClass: "kerberos"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := secretvolume.New(secretvolume.Options{})
			got := tt.class.Wire(set, "auth-0")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wiring (-want +got):\n%s", diff)
			}
			vols, err := set.Volumes()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, v := range vols {
				names = append(names, v.Name+"="+v.Ephemeral.VolumeClaimTemplate.Annotations[secretclassv1alpha1.AnnotationClass])
			}
			if diff := cmp.Diff(tt.volumes, names); diff != "" {
				t.Errorf("volumes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireBlamesTheClassesFields: a bad secret class in a class is the
// user's mistake, named in the class they wrote.
func TestWireBlamesTheClassesFields(t *testing.T) {
	c := authentication.Class{Name: "ldap", Provider: authenticationv1alpha1.Provider{LDAP: &authenticationv1alpha1.LDAPProvider{
		Hostname: "ldap", BindCredentials: &secretclassv1alpha1.Volume{SecretClass: "Bad_Class"}}}}
	set := secretvolume.New(secretvolume.Options{})
	c.Wire(set, "auth")
	err := set.Validate()
	want := `AuthenticationClass ldap spec.provider.ldap.bindCredentials.secretClass: "Bad_Class" is not a secret class name`
	if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("got %v", err)
	}
}
