package servertest_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/authentication"
)

// createClass creates a cluster-scoped class with a name unique to the
// test and deletes it at cleanup.
func createClass(t *testing.T, suffix string, p authenticationv1alpha1.Provider) string {
	t.Helper()
	cp := env.Require(t)
	c := &authenticationv1alpha1.AuthenticationClass{ObjectMeta: metav1.ObjectMeta{GenerateName: suffix + "-"},
		Spec: authenticationv1alpha1.AuthenticationClassSpec{Provider: p}}
	require.NoError(t, cp.Client.Create(t.Context(), c))
	t.Cleanup(func() { _ = cp.Client.Delete(t.Context(), c) })
	return c.Name
}

func TestResolveReadsTheClassesInOrder(t *testing.T) {
	cp := env.Require(t)
	ldap := createClass(t, "ldap", authenticationv1alpha1.Provider{LDAP: &authenticationv1alpha1.LDAPProvider{Hostname: "ldap.example.com"}})
	oidc := createClass(t, "oidc", authenticationv1alpha1.Provider{OIDC: &authenticationv1alpha1.OIDCProvider{
		Hostname: "keycloak.example.com", PrincipalClaim: "preferred_username"}})
	refs := []authenticationv1alpha1.ClassReference{
		{AuthenticationClass: oidc, OIDC: &authenticationv1alpha1.OIDCClientOptions{ClientCredentialsSecret: "client"}},
		{AuthenticationClass: ldap},
	}
	got, err := authentication.Resolve(t.Context(), cp.Client, refs, "spec.authentication", authentication.ResolveOptions{})
	require.NoError(t, err)
	var summary []string
	for _, c := range got {
		summary = append(summary, c.Field+"="+string(c.Kind()))
	}
	if diff := cmp.Diff([]string{"spec.authentication[0]=oidc", "spec.authentication[1]=ldap"}, summary); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
}

func TestResolveRefusesAndWaits(t *testing.T) {
	cp := env.Require(t)
	ldap := createClass(t, "ldap", authenticationv1alpha1.Provider{LDAP: &authenticationv1alpha1.LDAPProvider{Hostname: "ldap.example.com"}})
	oidc := createClass(t, "oidc", authenticationv1alpha1.Provider{OIDC: &authenticationv1alpha1.OIDCProvider{
		Hostname: "keycloak.example.com", PrincipalClaim: "sub"}})
	refs := []authenticationv1alpha1.ClassReference{
		{AuthenticationClass: ldap},              // not supported by this product
		{AuthenticationClass: oidc},              // an OIDC class without the client
		{AuthenticationClass: "missing-" + ldap}, // not there yet
		{AuthenticationClass: oidc, OIDC: &authenticationv1alpha1.OIDCClientOptions{ClientCredentialsSecret: "c"}}, // twice
	}
	_, err := authentication.Resolve(t.Context(), cp.Client, refs, "spec.authentication", authentication.ResolveOptions{
		Supported:     []authenticationv1alpha1.ProviderKind{authenticationv1alpha1.ProviderOIDC, authenticationv1alpha1.ProviderTLS},
		NotFoundRetry: time.Second,
	})
	require.Error(t, err)
	type found struct {
		Field string
		Class failure.Class
	}
	var got []found
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		got = append(got, found{failure.FieldOf(e), failure.ClassOf(e)})
	}
	slices.SortFunc(got, func(a, b found) int { return strings.Compare(a.Field, b.Field) })
	want := []found{
		{"spec.authentication[0].authenticationClass", failure.ClassInvalid},
		{"spec.authentication[1].oidc", failure.ClassInvalid},
		{"spec.authentication[2].authenticationClass", failure.ClassRequeue},
		{"spec.authentication[3].authenticationClass", failure.ClassInvalid},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s\n%v", diff, err)
	}
	require.True(t, apierrors.IsNotFound(err), "the missing class keeps the API server's answer")
	require.Contains(t, err.Error(), "provides ldap authentication; this product supports oidc, tls")
	var nf *authentication.NotFoundError
	require.True(t, errors.As(err, &nf))
	require.Equal(t, time.Second, nf.After)
}
