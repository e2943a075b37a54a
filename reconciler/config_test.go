package reconciler

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
			err := cfg.validate()
			if len(tt.wantErrs) == 0 {
				if err != nil {
					t.Fatalf("validate: %v", err)
				}
				cacheOpts, _ := cfg.ManagerOptions()
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
