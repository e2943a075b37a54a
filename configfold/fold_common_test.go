package configfold

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
)

func configWithAffinity(s string) *v1alpha1.RoleGroupConfigSpec {
	return &v1alpha1.RoleGroupConfigSpec{Affinity: raw(s)}
}

const (
	nodeAff = `{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchExpressions":[{"key":"type","operator":"In","values":["big"]}]}}]}}`
	podAff  = `{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]}}`
	bothAff = `{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":20,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]},` +
		`"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]}}`
)

func TestFoldCommonAffinity(t *testing.T) {
	tests := []struct {
		name                  string
		defaults, role, group *v1alpha1.RoleGroupConfigSpec
		wantAffinity          string // "" means absent
		wantOverrides         []AffinityOverride
	}{
		{name: "no layer states an affinity"},
		{name: "a default alone is kept", defaults: configWithAffinity(podAff), wantAffinity: podAff},
		{name: "the group replaces the role's affinity wholesale and reports what it discarded",
			role: configWithAffinity(hostnameAntiAffinity), group: configWithAffinity(nodeAff),
			wantAffinity:  nodeAff,
			wantOverrides: []AffinityOverride{{Replaced: LayerRole, By: LayerRoleGroup, Discarded: []AffinityMember{PodAntiAffinity}}}},
		{name: "a member restated by the replacement is not reported",
			defaults: configWithAffinity(bothAff), role: configWithAffinity(hostnameAntiAffinity),
			wantAffinity:  hostnameAntiAffinity,
			wantOverrides: []AffinityOverride{{Replaced: LayerProduct, By: LayerRole, Discarded: []AffinityMember{PodAffinity}}}},
		{name: "each replacement is reported against the layer it replaced",
			defaults: configWithAffinity(bothAff), role: configWithAffinity(nodeAff), group: configWithAffinity(podAff),
			wantAffinity: podAff,
			wantOverrides: []AffinityOverride{
				{Replaced: LayerProduct, By: LayerRole, Discarded: []AffinityMember{PodAffinity, PodAntiAffinity}},
				{Replaced: LayerRole, By: LayerRoleGroup, Discarded: []AffinityMember{NodeAffinity}},
			}},
		{name: "an empty object clears and reports nothing",
			defaults: configWithAffinity(bothAff), group: configWithAffinity(`{}`)},
		{name: "an object of empty members clears too",
			defaults: configWithAffinity(bothAff), group: configWithAffinity(`{"podAntiAffinity":{}}`)},
		{name: "a replacement after a clear discards nothing",
			defaults: configWithAffinity(bothAff), role: configWithAffinity(`{}`), group: configWithAffinity(nodeAff),
			wantAffinity: nodeAff},
		{name: "null states nothing and keeps what is beneath",
			role: configWithAffinity(podAff), group: configWithAffinity(`null`), wantAffinity: podAff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, overrides, err := FoldCommon(tt.defaults, tt.role, tt.group)
			require.NoError(t, err)
			var gotAffinity string
			if got.Affinity != nil {
				gotAffinity = string(got.Affinity.Raw)
			}
			if diff := cmp.Diff(tt.wantAffinity, gotAffinity); diff != "" {
				t.Errorf("affinity mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantOverrides, overrides); diff != "" {
				t.Errorf("overrides mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAffinityOverrideStringNamesLayersAndMembers(t *testing.T) {
	o := AffinityOverride{Replaced: LayerRole, By: LayerRoleGroup, Discarded: []AffinityMember{PodAffinity, PodAntiAffinity}}
	want := "the role group's config replaces config.affinity wholesale, discarding the podAffinity, podAntiAffinity declared by the role's config; " +
		"affinity is not merged per member, so restate a discarded member beside your own to keep it"
	if diff := cmp.Diff(want, o.String()); diff != "" {
		t.Errorf("String() mismatch (-want +got):\n%s", diff)
	}
}

func TestFoldCommonErrors(t *testing.T) {
	tests := []struct {
		name                  string
		defaults, role, group *v1alpha1.RoleGroupConfigSpec
		want                  []FieldError // Err compared with errors.Is
		wantSpecPath          string       // of the first error, for role "server" group "default"
	}{
		{name: "a misspelt affinity member names the layer and the field",
			role:         configWithAffinity(`{"nodeAffinty":{}}`),
			want:         []FieldError{{Layer: LayerRole, Field: "config.affinity.nodeAffinty", Err: ErrUnknownField}},
			wantSpecPath: "spec.roles.server.config.affinity.nodeAffinty"},
		{name: "an error in a layer that is overridden is still reported",
			role:         configWithAffinity(`{"podAffinity":{"x":1}}`),
			group:        configWithAffinity(podAff),
			want:         []FieldError{{Layer: LayerRole, Field: "config.affinity.podAffinity.x", Err: ErrUnknownField}},
			wantSpecPath: "spec.roles.server.config.affinity.podAffinity.x"},
		{name: "errors of several layers are all reported",
			defaults: &v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("soon")},
			group:    configWithAffinity(`{"nodeAffinity":1}`),
			want: []FieldError{
				{Layer: LayerProduct, Field: "config.gracefulShutdownTimeout", Err: ErrInvalidValue},
				{Layer: LayerRoleGroup, Field: "config.affinity.nodeAffinity", Err: ErrMalformed},
			},
			wantSpecPath: "defaults of role server: config.gracefulShutdownTimeout"},
		{name: "a non-positive graceful shutdown timeout is refused",
			group:        &v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("-5s")},
			want:         []FieldError{{Layer: LayerRoleGroup, Field: "config.gracefulShutdownTimeout", Err: ErrInvalidValue}},
			wantSpecPath: "spec.roles.server.roleGroups.default.config.gracefulShutdownTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, overrides, err := FoldCommon(tt.defaults, tt.role, tt.group)
			require.Error(t, err)
			require.Nil(t, got)
			require.Nil(t, overrides)
			errs := unwrapAll(err)
			require.Len(t, errs, len(tt.want))
			for i, e := range errs {
				var fe *FieldError
				require.ErrorAs(t, e, &fe)
				if diff := cmp.Diff(tt.want[i].Layer, fe.Layer); diff != "" {
					t.Errorf("error %d layer (-want +got):\n%s", i, diff)
				}
				if diff := cmp.Diff(tt.want[i].Field, fe.Field); diff != "" {
					t.Errorf("error %d field (-want +got):\n%s", i, diff)
				}
				if !errors.Is(fe, tt.want[i].Err) {
					t.Errorf("error %d = %v, want it to wrap %v", i, fe, tt.want[i].Err)
				}
			}
			var first *FieldError
			require.ErrorAs(t, err, &first)
			if diff := cmp.Diff(tt.wantSpecPath, first.SpecPath("server", "default")); diff != "" {
				t.Errorf("SpecPath mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldCommonGracefulShutdownTimeoutIsAtomic(t *testing.T) {
	tests := []struct {
		name                  string
		defaults, role, group *string
		want                  *string
	}{
		{name: "unset everywhere stays unset"},
		{name: "the default applies when nobody overrides it", defaults: new("30s"), want: new("30s")},
		{name: "the role group wins over the role", role: new("1m"), group: new("90s"), want: new("90s")},
		{name: "an unset group inherits the role", defaults: new("30s"), role: new("1m"), want: new("1m")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := FoldCommon(
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.defaults},
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.role},
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.group})
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got.GracefulShutdownTimeout); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldCommonOfNothingIsEmpty(t *testing.T) {
	got, overrides, err := FoldCommon(nil, nil, nil)
	require.NoError(t, err)
	require.Nil(t, overrides)
	if diff := cmp.Diff(&v1alpha1.RoleGroupConfigSpec{}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
