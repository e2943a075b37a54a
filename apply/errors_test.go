package apply_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

// Every exported error type of the module reports its class, also when
// wrapped, and an invalid object says whose mistake it is and where.
func TestErrorClasses(t *testing.T) {
	ref := inventory.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "x"}
	tests := []struct {
		name       string
		err        error
		wantClass  failure.Class
		wantAuthor failure.Author
		wantField  string
	}{
		{
			name:       "invalid object",
			err:        &apply.InvalidObjectError{Object: ref, Annotation: "demo.opkit.dev/apply-order", Reason: "bad", Author: failure.AuthorOperator},
			wantClass:  failure.ClassInvalid,
			wantAuthor: failure.AuthorOperator,
			wantField:  "metadata.annotations[demo.opkit.dev/apply-order]",
		},
		{
			name:       "invalid user manifest",
			err:        &apply.InvalidObjectError{Object: ref, Reason: "name is empty", Author: failure.AuthorUser},
			wantClass:  failure.ClassInvalid,
			wantAuthor: failure.AuthorUser,
			wantField:  "metadata",
		},
		{
			name:      "foreign owner",
			err:       &apply.OwnershipError{Object: ref, Owner: "other", Policy: apply.AdoptionPolicyIfUnowned},
			wantClass: failure.ClassRequeue,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapped := fmt.Errorf("pass: %w", errors.Join(errors.New("other"), tt.err))
			got := []any{failure.ClassOf(wrapped), failure.AuthorOf(wrapped), failure.FieldOf(wrapped)}
			want := []any{tt.wantClass, tt.wantAuthor, tt.wantField}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("class, author, field (-want +got):\n%s", diff)
			}
		})
	}
	if d := failure.Delay(&apply.OwnershipError{Object: ref}); d != apply.OwnershipRetryDelay {
		t.Errorf("ownership delay = %v, want %v", d, apply.OwnershipRetryDelay)
	}
}
