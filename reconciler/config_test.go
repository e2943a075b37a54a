package reconciler

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"

	"github.com/opkit-dev/opkit/api/failure"
)

func TestConfigNamespaces(t *testing.T) {
	tests := []struct {
		name       string
		namespaces []string
		wantErrs   []string
	}{
		{"every namespace", nil, nil},
		{"two namespaces", []string{"team-a", "team-b"}, nil},
		{"listed twice", []string{"team-a", "team-a"}, []string{`reconciler.Config.Namespaces[1]: "team-a" is listed twice`}},
		{"not a name", []string{"Team_A"}, []string{`reconciler.Config.Namespaces[0]: "Team_A" is not a namespace name`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: StaticRoles[*testCluster](Catalog{}), Namespaces: tt.namespaces}
			r, err := New(cfg)
			if len(tt.wantErrs) == 0 {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				cacheOpts, _ := r.ManagerOptions()
				var got []string
				for ns := range cacheOpts.DefaultNamespaces {
					got = append(got, ns)
				}
				slices.Sort(got)
				if diff := cmp.Diff(tt.namespaces, got); diff != "" {
					t.Errorf("the manager's cache namespaces (-want +got):\n%s", diff)
				}
				return
			}
			if !errors.Is(err, failure.ErrInvalid) || failure.AuthorOf(err) != failure.AuthorOperator {
				t.Fatalf("want invalid input of the operator's author, got %v", err)
			}
			for _, want := range tt.wantErrs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

// What the reconciler sets in the engine's and the cleaner's options is
// refused when a Config sets it too, naming each field, rather than
// silently replaced.
func TestConfigRefusesWhatTheReconcilerSets(t *testing.T) {
	cfg := Config[*testCluster]{Name: "test.opkit.dev", For: &testCluster{}, Roles: StaticRoles[*testCluster](Catalog{})}
	cfg.Apply.Clock = clock.RealClock{}
	cfg.Apply.Kinds = []schema.GroupVersionKind{{Version: "v1", Kind: "ConfigMap"}}
	cfg.Orphan.ManagedBy = "someone"
	cfg.MaxConcurrentReconciles = -1
	cfg.ProgressWriteEvery = -time.Second
	_, err := New(cfg)
	if !errors.Is(err, failure.ErrInvalid) {
		t.Fatalf("want invalid input, got %v", err)
	}
	for _, want := range []string{
		"reconciler.Config.Apply.Kinds: is set by the reconciler; leave it empty (list further kinds in ExtraKinds)",
		"reconciler.Config.Apply.Clock: is set by the reconciler; leave it empty (set Clock)",
		"reconciler.Config.Orphan.ManagedBy: is set by the reconciler; leave it empty (set ManagedBy)",
		"reconciler.Config.MaxConcurrentReconciles: -1 is negative",
		"reconciler.Config.ProgressWriteEvery: -1s is negative",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
