package authentication_test

import (
	"fmt"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/authentication"
	"github.com/opkit-dev/opkit/secretvolume"
)

// An LDAP class, as Resolve returns it, wired into a product: the address,
// the attribute names and where the bind credentials are mounted.
func Example() {
	class := authentication.Class{Name: "ldap", Field: "spec.authentication[0]",
		Provider: authenticationv1alpha1.Provider{LDAP: &authenticationv1alpha1.LDAPProvider{
			Hostname: "openldap.auth", SearchBase: "ou=users,dc=example,dc=org",
			BindCredentials: &secretclassv1alpha1.Volume{SecretClass: "ldap-bind"},
		}}}
	set := secretvolume.New(secretvolume.Options{})
	w := class.Wire(set, "auth-0")
	fmt.Println(class.Kind(), w.LDAP.URL, w.LDAP.FieldNames.UID)
	fmt.Println(w.LDAP.BindUserFile)
	fmt.Println(set.Names())
	// Output:
	// ldap ldap://openldap.auth:389 uid
	// /opkit/secret/auth-0-bind/user
	// [auth-0-bind]
}
