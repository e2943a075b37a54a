package builders

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
)

// TestErrorClasses proves the class, author and field every exported error
// type reports, wrapped as a caller would see it.
func TestErrorClasses(t *testing.T) {
	type report struct {
		Class  failure.Class
		Author failure.Author
		Field  string
	}
	tests := []struct {
		name string
		err  error
		want report
	}{
		{"ValidationError by the user",
			&ValidationError{Author: failure.AuthorUser, Field: "spec.roles.a.config.x", Message: "bad"},
			report{failure.ClassInvalid, failure.AuthorUser, "spec.roles.a.config.x"}},
		{"ValidationError by the operator",
			&ValidationError{Author: failure.AuthorOperator, Field: "servicePorts", Message: "none"},
			report{failure.ClassInvalid, failure.AuthorOperator, "servicePorts"}},
		{"RenderError", &RenderError{File: "a.ini", Key: "k", Message: "bad"},
			report{failure.ClassInvalid, failure.AuthorUnknown, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := fmt.Errorf("role group server/default: %w", errors.Join(errors.New("other"), tt.err))
			got := report{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
