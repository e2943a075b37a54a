package reconciler_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler"
)

func TestValidateCatalog(t *testing.T) {
	catalog := reconciler.Catalog{"server": {}, "gateway": {}, "observer": {Optional: true}, "coordinator": {}}
	tests := []struct {
		name        string
		roles       []string
		wantUnused  []string
		wantUnknown map[string][]string // role → near misses
	}{
		{"all used", []string{"server", "gateway", "coordinator"}, nil, nil},
		{"optional unused is silent", []string{"server", "gateway", "coordinator"}, nil, nil},
		{"unused reported sorted", []string{"server"}, []string{"coordinator", "gateway"}, nil},
		{"typo with near miss", []string{"servr", "gateway", "coordinator"}, []string{"server"}, map[string][]string{"servr": {"server"}}},
		{"prefix counts as near", []string{"coord", "server", "gateway"}, []string{"coordinator"}, map[string][]string{"coord": {"coordinator"}}},
		{"nothing close", []string{"zookeeper", "server", "gateway", "coordinator"}, nil, map[string][]string{"zookeeper": nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{}}
			for _, r := range tt.roles {
				spec.Roles[r] = commonsv1alpha1.RoleSpec{}
			}
			unused, err := reconciler.ValidateCatalog(spec, catalog)
			if diff := cmp.Diff(tt.wantUnused, unused); diff != "" {
				t.Errorf("unused (-want +got):\n%s", diff)
			}
			got := map[string][]string{}
			for _, e := range unjoin(err) {
				var u *reconciler.UnknownRoleError
				if !errors.As(e, &u) {
					t.Fatalf("unexpected error %T: %v", e, e)
				}
				got[u.Role] = u.NearMisses
				if !errors.Is(e, failure.ErrInvalid) || failure.AuthorOf(e) != failure.AuthorUser || failure.FieldOf(e) != "spec.roles."+u.Role {
					t.Errorf("%v: class %v, author %v, field %q", e, failure.ClassOf(e), failure.AuthorOf(e), failure.FieldOf(e))
				}
			}
			if len(tt.wantUnknown) == 0 && len(got) == 0 {
				return
			}
			if diff := cmp.Diff(tt.wantUnknown, got); diff != "" {
				t.Errorf("unknown roles (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownRoleMessage(t *testing.T) {
	spec := &commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{"brokr": {}}}
	_, err := reconciler.ValidateCatalog(spec, reconciler.Catalog{"broker": {}, "controller": {}})
	want := `spec.roles.brokr: the product has no role "brokr"; did you mean "broker"? (roles: "broker", "controller")`
	if err == nil || err.Error() != want {
		t.Errorf("message\n got %v\nwant %s", err, want)
	}
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
