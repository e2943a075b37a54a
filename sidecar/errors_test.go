package sidecar_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/sidecar"
)

// TestErrorClasses proves the class, author and field of every exported
// error type, wrapped as a caller would see it.
func TestErrorClasses(t *testing.T) {
	type report struct {
		Class  failure.Class
		Author failure.Author
		Field  string
	}
	userSecret := sidecar.Requirement{Kind: sidecar.KindSecret, Name: "s", Field: "spec.s", NamedBy: failure.AuthorUser, Provider: "p"}
	ownConfigMap := sidecar.Requirement{Kind: sidecar.KindConfigMap, Name: "cm", NamedBy: failure.AuthorOperator, Provider: "p"}
	tests := []struct {
		name string
		err  error
		want report
	}{
		{"RegistrationError", &sidecar.RegistrationError{Provider: "p", Message: "x"},
			report{failure.ClassInvalid, failure.AuthorOperator, "sidecars[p]"}},
		{"InjectError", &sidecar.InjectError{Provider: "p", Err: errors.New("x")},
			report{failure.ClassInvalid, failure.AuthorOperator, "sidecars[p]"}},
		{"InjectError of a conflict", &sidecar.InjectError{Provider: "p", Err: &sidecar.ConflictError{Kind: "volume", Name: "v"}},
			report{failure.ClassInvalid, failure.AuthorOperator, "sidecars[p]"}},
		{"ConflictError", &sidecar.ConflictError{Kind: "volume", Name: "v"},
			report{failure.ClassInvalid, failure.AuthorOperator, ""}},
		{"MissingObjectError, user's object absent", &sidecar.MissingObjectError{Requirement: userSecret},
			report{failure.ClassInvalid, failure.AuthorUser, "spec.s"}},
		{"MissingObjectError, user's object lacks a key", &sidecar.MissingObjectError{Requirement: userSecret, Keys: []string{"k"}},
			report{failure.ClassInvalid, failure.AuthorUser, "spec.s"}},
		{"MissingObjectError, framework's object absent", &sidecar.MissingObjectError{Requirement: ownConfigMap},
			report{failure.ClassRequeue, failure.AuthorOperator, "sidecars[p]"}},
		{"MissingObjectError, framework's object lacks a key", &sidecar.MissingObjectError{Requirement: ownConfigMap, Keys: []string{"k"}},
			report{failure.ClassInvalid, failure.AuthorOperator, "sidecars[p]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fmt.Errorf("role group broker/default: %w", errors.Join(errors.New("other"), tt.err))
			got := report{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
