package vector_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/vector"
)

// TestErrorClasses proves the class, author and field of the module's
// error type, wrapped as a caller would see it.
func TestErrorClasses(t *testing.T) {
	type report struct {
		Class  failure.Class
		Author failure.Author
		Field  string
	}
	for _, cause := range []error{vector.ErrConfigMapNotFound, vector.ErrAddressMissing, vector.ErrAddressInvalid} {
		err := fmt.Errorf("role group: %w", errors.Join(errors.New("other"),
			&vector.DiscoveryError{Namespace: "ns", ConfigMap: "cm", Err: cause}))
		got := report{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}
		want := report{failure.ClassInvalid, failure.AuthorUser, "spec.vectorAggregatorConfigMapName"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v (-want +got):\n%s", cause, diff)
		}
	}
}
