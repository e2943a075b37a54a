package sample_test

import (
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// The keys of spec.roles and of each role's roleGroups become segments of
// resource names and label values, so the API server must refuse anything
// that is not a lowercase RFC 1123 label at admission.
func TestAPIServerValidatesRoleAndRoleGroupKeys(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	keys := []struct {
		key    string
		accept bool
	}{
		{key: "server", accept: true},
		{key: "role-1", accept: true},
		{key: "0", accept: true},
		{key: strings.Repeat("a", 63), accept: true},
		{key: "Coordinator"},
		{key: "my_role"},
		{key: "a.b"},
		{key: "-server"},
		{key: "server-"},
		{key: strings.Repeat("a", 64)},
	}
	specFor := map[string]func(key string) commonsv1alpha1.ClusterSpec{
		"role": func(key string) commonsv1alpha1.ClusterSpec {
			return commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{
				key: {RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}}},
			}}
		},
		"role group": func(key string) commonsv1alpha1.ClusterSpec {
			return commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{
				"server": {RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{key: {}}},
			}}
		},
	}
	wantMessage := map[string]string{
		"role":       "role names must be lowercase RFC 1123 labels",
		"role group": "role group names must be lowercase RFC 1123 labels",
	}
	for _, kind := range []string{"role", "role group"} {
		for _, tc := range keys {
			name := fmt.Sprintf("%s key %s", kind, tc.key)
			if len(tc.key) > 20 {
				name = fmt.Sprintf("%s key of %d characters", kind, len(tc.key))
			}
			t.Run(name, func(t *testing.T) {
				err := cp.Client.Create(t.Context(), newCluster(ns, specFor[kind](tc.key)))
				if tc.accept {
					if err != nil {
						t.Fatalf("%s key %q rejected: %v", kind, tc.key, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("%s key %q accepted, want it rejected", kind, tc.key)
				}
				if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), wantMessage[kind]) {
					t.Fatalf("%s key %q: got %v, want an Invalid error saying %q", kind, tc.key, err, wantMessage[kind])
				}
			})
		}
	}
}

// maxProperties bounds the maps so the API server can bound the CEL rule's
// cost; the bound itself must hold too.
func TestAPIServerBoundsTheNumberOfRolesAndRoleGroups(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	tests := []struct {
		name   string
		spec   commonsv1alpha1.ClusterSpec
		accept bool
	}{
		{name: "64 roles are accepted", spec: commonsv1alpha1.ClusterSpec{Roles: rolesNamed(64)}, accept: true},
		{name: "65 roles are rejected", spec: commonsv1alpha1.ClusterSpec{Roles: rolesNamed(65)}},
		{
			name: "256 role groups are accepted",
			spec: commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{
				"server": {RoleGroups: groupsNamed(256)},
			}},
			accept: true,
		},
		{
			name: "257 role groups are rejected",
			spec: commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{
				"server": {RoleGroups: groupsNamed(257)},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := cp.Client.Create(t.Context(), newCluster(ns, tc.spec))
			if tc.accept {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "must have at most") {
				t.Fatalf("got %v, want an Invalid error about too many properties", err)
			}
		})
	}
}

// gracefulShutdownTimeout is a Go duration; what Go cannot parse is refused
// at admission, where the user sees it.
func TestAPIServerValidatesGracefulShutdownTimeout(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	tests := []struct {
		value  string
		accept bool
	}{
		{value: "30s", accept: true},
		{value: "1m30s", accept: true},
		{value: "1.5h", accept: true},
		{value: "30"},
		{value: "30 seconds"},
		{value: "-5s"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			spec := commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{"server": {
				Config: &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: &tc.value},
			}}}
			err := cp.Client.Create(t.Context(), newCluster(ns, spec))
			if tc.accept {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				return
			}
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "gracefulShutdownTimeout") {
				t.Fatalf("got %v, want an Invalid error naming gracefulShutdownTimeout", err)
			}
		})
	}
}
