package configfold

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
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
	nodeAndAntiAff = `{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchExpressions":[{"key":"type","operator":"In","values":["big"]}]}}]},` +
		`"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":70,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"zk"}},"topologyKey":"kubernetes.io/hostname"}}]}}`
)

const (
	groupAffinity = "spec.roles.server.roleGroups.default.config.affinity"
	roleAffinity  = "spec.roles.server.config.affinity"
	declAffinity  = "roles[server].config.affinity"
)

func TestFoldCommonAffinity(t *testing.T) {
	tests := []struct {
		name                     string
		declaration, role, group *v1alpha1.RoleGroupConfigSpec
		wantAffinity             string // "" means absent
		wantOverride             *AffinityOverride
	}{
		{name: "no layer states an affinity"},
		{name: "a declared default alone is kept", declaration: configWithAffinity(podAff), wantAffinity: podAff},
		{name: "the group replaces the role's affinity wholesale and reports what the result lacks",
			role: configWithAffinity(hostnameAntiAffinity), group: configWithAffinity(nodeAff),
			wantAffinity: nodeAff,
			wantOverride: &AffinityOverride{By: v1alpha1.LayerRoleGroup, FieldPath: groupAffinity, Discarded: []DiscardedAffinity{
				{Member: PodAntiAffinity, Layer: v1alpha1.LayerRole, FieldPath: roleAffinity + ".podAntiAffinity"}}}},
		{name: "a member restated by the result is not reported",
			declaration: configWithAffinity(bothAff), role: configWithAffinity(hostnameAntiAffinity),
			wantAffinity: hostnameAntiAffinity,
			wantOverride: &AffinityOverride{By: v1alpha1.LayerRole, FieldPath: roleAffinity, Discarded: []DiscardedAffinity{
				{Member: PodAffinity, Layer: v1alpha1.LayerDeclaration, FieldPath: declAffinity + ".podAffinity"}}}},
		{name: "every member the result lacks is reported once, from the highest layer declaring it",
			declaration: configWithAffinity(bothAff), role: configWithAffinity(nodeAndAntiAff), group: configWithAffinity(podAff),
			wantAffinity: podAff,
			wantOverride: &AffinityOverride{By: v1alpha1.LayerRoleGroup, FieldPath: groupAffinity, Discarded: []DiscardedAffinity{
				{Member: NodeAffinity, Layer: v1alpha1.LayerRole, FieldPath: roleAffinity + ".nodeAffinity"},
				{Member: PodAntiAffinity, Layer: v1alpha1.LayerRole, FieldPath: roleAffinity + ".podAntiAffinity"},
			}}},
		{name: "a member dropped by the role and restated by the group is not reported",
			declaration: configWithAffinity(hostnameAntiAffinity), role: configWithAffinity(nodeAff),
			group:        configWithAffinity(hostnameAntiAffinity),
			wantAffinity: hostnameAntiAffinity,
			wantOverride: &AffinityOverride{By: v1alpha1.LayerRoleGroup, FieldPath: groupAffinity, Discarded: []DiscardedAffinity{
				{Member: NodeAffinity, Layer: v1alpha1.LayerRole, FieldPath: roleAffinity + ".nodeAffinity"}}}},
		{name: "the group restating everything beneath reports nothing",
			declaration: configWithAffinity(hostnameAntiAffinity), role: configWithAffinity(nodeAff),
			group: configWithAffinity(nodeAndAntiAff), wantAffinity: nodeAndAntiAff},
		{name: "an empty object in the group clears and reports nothing",
			declaration: configWithAffinity(hostnameAntiAffinity), role: configWithAffinity(nodeAff), group: configWithAffinity(`{}`)},
		{name: "an object of empty members clears too",
			declaration: configWithAffinity(bothAff), group: configWithAffinity(`{"podAntiAffinity":{}}`)},
		{name: "a replacement after a clear lacks nothing that was not cleared",
			declaration: configWithAffinity(bothAff), role: configWithAffinity(`{}`), group: configWithAffinity(nodeAff),
			wantAffinity: nodeAff},
		{name: "null states nothing and keeps what is beneath",
			role: configWithAffinity(podAff), group: configWithAffinity(`null`), wantAffinity: podAff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := foldCommon(tt.declaration, tt.role, tt.group)
			require.NoError(t, err)
			var gotAffinity string
			if got.Config.Affinity != nil {
				gotAffinity = string(got.Config.Affinity.Raw)
			}
			if diff := cmp.Diff(tt.wantAffinity, gotAffinity); diff != "" {
				t.Errorf("affinity mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantOverride, got.AffinityOverride); diff != "" {
				t.Errorf("override mismatch (-want +got):\n%s", diff)
			}
			if (got.Affinity == nil) != (tt.wantAffinity == "") {
				t.Errorf("typed affinity %v does not match the encoded one %q", got.Affinity, gotAffinity)
			}
		})
	}
}

func TestAffinityOverrideStringNamesPathsAndMembers(t *testing.T) {
	o := AffinityOverride{By: v1alpha1.LayerRoleGroup, FieldPath: groupAffinity, Discarded: []DiscardedAffinity{
		{Member: PodAffinity, Layer: v1alpha1.LayerDeclaration, FieldPath: declAffinity + ".podAffinity"},
		{Member: PodAntiAffinity, Layer: v1alpha1.LayerRole, FieldPath: roleAffinity + ".podAntiAffinity"},
	}}
	want := "spec.roles.server.roleGroups.default.config.affinity replaces the affinity wholesale, so the pods get " +
		"no podAffinity (the operator's default for the role) and no podAntiAffinity (declared in spec.roles.server.config.affinity.podAntiAffinity); " +
		"affinity is not merged per member: restate a member beside your own to keep it"
	if diff := cmp.Diff(want, o.String()); diff != "" {
		t.Errorf("String() mismatch (-want +got):\n%s", diff)
	}
}

func TestFoldCommonErrors(t *testing.T) {
	type wantErr struct {
		Layer  v1alpha1.Layer
		Path   string
		Author failure.Author
		Cause  error
	}
	tests := []struct {
		name                     string
		declaration, role, group *v1alpha1.RoleGroupConfigSpec
		want                     []wantErr
	}{
		{name: "a misspelt affinity member names the absolute path and blames the user",
			role: configWithAffinity(`{"nodeAffinty":{}}`),
			want: []wantErr{{v1alpha1.LayerRole, "spec.roles.server.config.affinity.nodeAffinty", failure.AuthorUser, ErrUnknownField}}},
		{name: "an error in a layer that is overridden is still reported",
			role:  configWithAffinity(`{"podAffinity":{"x":1}}`),
			group: configWithAffinity(podAff),
			want:  []wantErr{{v1alpha1.LayerRole, "spec.roles.server.config.affinity.podAffinity.x", failure.AuthorUser, ErrUnknownField}}},
		{name: "errors of several layers are all reported, a declaration's blamed on the operator",
			declaration: &v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("soon")},
			group:       configWithAffinity(`{"nodeAffinity":1}`),
			want: []wantErr{
				{v1alpha1.LayerDeclaration, "roles[server].config.gracefulShutdownTimeout", failure.AuthorOperator, ErrInvalidValue},
				{v1alpha1.LayerRoleGroup, "spec.roles.server.roleGroups.default.config.affinity.nodeAffinity", failure.AuthorUser, ErrMalformed},
			}},
		{name: "a non-positive graceful shutdown timeout is refused",
			group: &v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: new("-5s")},
			want:  []wantErr{{v1alpha1.LayerRoleGroup, "spec.roles.server.roleGroups.default.config.gracefulShutdownTimeout", failure.AuthorUser, ErrInvalidValue}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := foldCommon(tt.declaration, tt.role, tt.group)
			require.Error(t, err)
			require.Equal(t, Common{}, got)
			require.ErrorIs(t, err, failure.ErrInvalid)
			var gotErrs []wantErr
			for _, e := range unwrapAll(err) {
				var fe *FieldError
				require.ErrorAs(t, e, &fe)
				require.True(t, errors.Is(fe, failure.ErrInvalid), "%v is not of the invalid class", fe)
				w := wantErr{Layer: fe.Layer, Path: failure.FieldOf(e), Author: failure.AuthorOf(e)}
				for _, cause := range []error{ErrUnknownField, ErrMalformed, ErrInvalidValue, ErrDuplicateField} {
					if errors.Is(fe, cause) {
						w.Cause = cause
					}
				}
				gotErrs = append(gotErrs, w)
			}
			if diff := cmp.Diff(tt.want, gotErrs, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldCommonErrorMessageStartsWithTheAbsolutePath(t *testing.T) {
	_, err := foldCommon(nil, nil, configWithAffinity(`{"nodeAffinty":{}}`))
	require.EqualError(t, err, "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty: unknown field")
}

func TestFoldCommonRequiresTheNamesThatMakePathsAbsolute(t *testing.T) {
	tests := []struct {
		name      string
		in        Layers[v1alpha1.RoleGroupConfigSpec]
		wantField string // "" means no error
	}{
		{name: "nothing stated needs no names"},
		{name: "a stated layer needs the role name",
			in:        Layers[v1alpha1.RoleGroupConfigSpec]{RoleGroupName: "default", Role: configWithAffinity(podAff)},
			wantField: "configfold.Layers.RoleName"},
		{name: "a stated role group needs the group name",
			in:        Layers[v1alpha1.RoleGroupConfigSpec]{RoleName: "server", RoleGroup: configWithAffinity(podAff)},
			wantField: "configfold.Layers.RoleGroupName"},
		{name: "a role-level fold needs no group name",
			in: Layers[v1alpha1.RoleGroupConfigSpec]{RoleName: "server", Declaration: configWithAffinity(podAff), Role: configWithAffinity(nodeAff)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FoldCommon(tt.in)
			if tt.wantField == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
			require.Equal(t, tt.wantField, failure.FieldOf(err))
		})
	}
}

func TestFoldCommonGracefulShutdownTimeoutIsAtomic(t *testing.T) {
	tests := []struct {
		name                     string
		declaration, role, group *string
		want                     *string
	}{
		{name: "unset everywhere stays unset"},
		{name: "the default applies when nobody overrides it", declaration: new("30s"), want: new("30s")},
		{name: "the role group wins over the role", role: new("1m"), group: new("90s"), want: new("90s")},
		{name: "an unset group inherits the role", declaration: new("30s"), role: new("1m"), want: new("1m")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := foldCommon(
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.declaration},
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.role},
				&v1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: tt.group})
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got.Config.GracefulShutdownTimeout); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFoldCommonOfNothingIsEmpty(t *testing.T) {
	got, err := FoldCommon(Layers[v1alpha1.RoleGroupConfigSpec]{})
	require.NoError(t, err)
	if diff := cmp.Diff(Common{Config: &v1alpha1.RoleGroupConfigSpec{}}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
