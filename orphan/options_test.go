package orphan_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/orphan"
)

// fieldsOf returns the field paths of the invalid-input errors joined in
// err, sorted, and fails unless each blames the operator.
func fieldsOf(t *testing.T, err error) []string {
	t.Helper()
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if !errors.Is(e, failure.ErrInvalid) || failure.AuthorOf(e) != failure.AuthorOperator {
			t.Errorf("%v: want an invalid-input error blaming the operator", e)
		}
		out = append(out, failure.FieldOf(e))
	}
	slices.Sort(out)
	return out
}

func TestNewCleanerBlamesTheOperator(t *testing.T) {
	tests := []struct {
		name string
		opts orphan.Options
		want []string
	}{
		{"zero options", orphan.Options{}, nil},
		{"negative durations", orphan.Options{GracePeriod: -time.Second, DrainTimeout: -1, DrainPollInterval: -time.Minute},
			[]string{"orphan.Options.DrainPollInterval", "orphan.Options.DrainTimeout", "orphan.Options.GracePeriod"}},
		{"negative concurrency", orphan.Options{MaxConcurrentGroups: -1}, []string{"orphan.Options.MaxConcurrentGroups"}},
		{"extra kind without a kind", orphan.Options{ExtraKinds: []schema.GroupVersionKind{
			{Group: "listeners.example.com", Version: "v1", Kind: "Listener"},
			{Group: "listeners.example.com", Version: "v1"},
		}}, []string{"orphan.Options.ExtraKinds[1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Without clients NewCleaner always fails; the options' own
			// errors come beside those of the clients.
			_, err := orphan.NewCleaner(nil, nil, tt.opts)
			want := append([]string{"orphan.NewCleaner", "orphan.NewCleaner"}, tt.want...)
			slices.Sort(want)
			if diff := cmp.Diff(want, fieldsOf(t, err)); diff != "" {
				t.Errorf("fields at fault (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}
