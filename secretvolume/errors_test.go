package secretvolume_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/secretvolume"
)

// blamed is what an error says about itself.
type blamed struct {
	Author failure.Author
	Field  string
}

// blames returns what every joined error says, sorted by field, failing
// the test for an error that is not invalid input.
func blames(t *testing.T, err error) []blamed {
	t.Helper()
	var out []blamed
	for _, e := range unjoin(err) {
		if !errors.Is(e, failure.ErrInvalid) {
			t.Errorf("error %q is not of class ErrInvalid", e)
		}
		out = append(out, blamed{failure.AuthorOf(e), failure.FieldOf(e)})
	}
	slices.SortFunc(out, func(a, b blamed) int { return strings.Compare(a.Field, b.Field) })
	return out
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

func TestInvalidRequestsNameTheirField(t *testing.T) {
	user := failure.AuthorUser
	op := failure.AuthorOperator
	tests := []struct {
		name string
		reqs []secretvolume.Request
		want []blamed
	}{
		{"a user's empty class names the user's field",
			[]secretvolume.Request{secretvolume.TLS("tls", "", nil).From(user, "spec.tls.serverSecretClass")},
			[]blamed{{user, "spec.tls.serverSecretClass"}}},
		{"a user's volume names its members",
			[]secretvolume.Request{secretvolume.Credentials("creds", secretclassv1alpha1.Volume{SecretClass: "Bad_Class",
				Scope: &secretclassv1alpha1.Scope{Services: []string{"no_such"}, ListenerVolumes: []string{"Listener"}}}).
				From(user, "spec.s3.inline.credentials")},
			[]blamed{{user, "spec.s3.inline.credentials.scope.listenerVolumes[0]"}, {user, "spec.s3.inline.credentials.scope.services[0]"},
				{user, "spec.s3.inline.credentials.secretClass"}}},
		{"an operator's request names the volume",
			[]secretvolume.Request{secretvolume.TLS("TLS", "tls", nil), secretvolume.Kerberos("kerberos", "kerberos")},
			[]blamed{{op, "secretvolume[TLS]"}, {op, "secretvolume[kerberos].kerberosServiceNames"}}},
		{"a user's class, the operator's service names",
			[]secretvolume.Request{secretvolume.Kerberos("kerberos", "kerberos", "HTTP/host").From(user, "spec.kerberos.secretClass")},
			[]blamed{{op, "secretvolume[kerberos].kerberosServiceNames"}}},
		{"a password without PKCS#12",
			[]secretvolume.Request{{Name: "tls", Class: "tls", Format: secretvolume.FormatTLSPEM, PKCS12Password: "x"}},
			[]blamed{{op, "secretvolume[tls].pkcs12Password"}}},
		{"a volume requested twice",
			[]secretvolume.Request{secretvolume.TLS("tls", "tls", nil), secretvolume.TLS("tls", "other", nil)},
			[]blamed{{op, "secretvolume[tls]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := secretvolume.New(secretvolume.Options{}).Add(tt.reqs...).Volumes()
			if diff := cmp.Diff(tt.want, blames(t, err)); diff != "" {
				t.Errorf("errors (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}
