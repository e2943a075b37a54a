package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/stretchr/testify/require"
)

func mergeOverrides(declaration, role, group *v1alpha1.OverridesSpec) (MergedOverrides, error) {
	return MergeOverrides(serverDefault(declaration, role, group))
}

func TestMergeOverrides(t *testing.T) {
	tests := []struct {
		name                     string
		declaration, role, group *v1alpha1.OverridesSpec
		want                     MergedOverrides
	}{
		{name: "nothing stated merges to nothing"},
		{name: "config overrides merge per file and per key",
			declaration: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"tickTime": "2000", "initLimit": "5"}}},
			role: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"initLimit": "10"}, "security.properties": {"a": "1"}}},
			group: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"tickTime": "3000"}}},
			want: MergedOverrides{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg":             {"tickTime": "3000", "initLimit": "10"},
				"security.properties": {"a": "1"}}}},
		{name: "env overrides merge per variable",
			declaration: &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"A": "p", "B": "p"}},
			group:       &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"B": "g", "C": "g"}},
			want:        MergedOverrides{EnvOverrides: map[string]string{"A": "p", "B": "g", "C": "g"}}},
		{name: "cli overrides are replaced by the last layer stating them",
			declaration: &v1alpha1.OverridesSpec{CliOverrides: []string{"--a"}},
			role:        &v1alpha1.OverridesSpec{CliOverrides: []string{"--b", "--c"}},
			group:       &v1alpha1.OverridesSpec{},
			want:        MergedOverrides{CliOverrides: []string{"--b", "--c"}}},
		{name: "an empty cli list clears the ones beneath",
			role:  &v1alpha1.OverridesSpec{CliOverrides: []string{"--b"}},
			group: &v1alpha1.OverridesSpec{CliOverrides: []string{}},
			want:  MergedOverrides{CliOverrides: []string{}}},
		{name: "pod overrides stay ordered layers, as written",
			declaration: &v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"p"}}}`)},
			group:       &v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"priorityClassName":"high"}}`)},
			want: MergedOverrides{PodOverrides: []PodOverrideLayer{
				{Layer: v1alpha1.LayerDeclaration, Patch: []byte(`{"metadata":{"labels":{"a":"p"}}}`)},
				{Layer: v1alpha1.LayerRoleGroup, Patch: []byte(`{"spec":{"priorityClassName":"high"}}`)},
			}}},
		{name: "a null pod override states nothing",
			role: &v1alpha1.OverridesSpec{PodOverrides: raw(`null`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mergeOverrides(tt.declaration, tt.role, tt.group)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("MergeOverrides() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// ignored is the comparable part of an IgnoredPodOverride.
type ignored struct {
	Layer     v1alpha1.Layer
	FieldPath string
	Paths     []string
	Authors   []failure.Author
}

func ignoredOf(got MergedOverrides) []ignored {
	var out []ignored
	for _, i := range got.IgnoredPodOverrides {
		o := ignored{Layer: i.Layer, FieldPath: i.FieldPath}
		for _, e := range i.Errors {
			o.Paths = append(o.Paths, e.FieldPath())
			o.Authors = append(o.Authors, e.Blame())
		}
		out = append(out, o)
	}
	return out
}

func TestMergeOverridesRecordsEachPodOverrideThatDoesNotDecode(t *testing.T) {
	got, err := mergeOverrides(
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"hostNetwrk":true}}`), EnvOverrides: map[string]string{"A": "d"}},
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"p"}}}`)},
		&v1alpha1.OverridesSpec{
			PodOverrides: raw(`{"spec":{"containres":[],"priorityClassName":7}}`),
			EnvOverrides: map[string]string{"B": "g"},
			CliOverrides: []string{"--g"},
		},
	)
	require.NoError(t, err)
	want := []ignored{
		{Layer: v1alpha1.LayerDeclaration, FieldPath: "roles[server].podOverrides",
			Paths: []string{"roles[server].podOverrides.spec.hostNetwrk"}, Authors: []failure.Author{failure.AuthorOperator}},
		{Layer: v1alpha1.LayerRoleGroup, FieldPath: "spec.roles.server.roleGroups.default.podOverrides",
			Paths: []string{"spec.roles.server.roleGroups.default.podOverrides.spec.priorityClassName"}, Authors: []failure.Author{failure.AuthorUser}},
	}
	if diff := cmp.Diff(want, ignoredOf(got)); diff != "" {
		t.Errorf("ignored layers mismatch (-want +got):\n%s", diff)
	}
	// The rest of the merge is still produced.
	if diff := cmp.Diff([]PodOverrideLayer{{Layer: v1alpha1.LayerRole, Patch: []byte(`{"metadata":{"labels":{"a":"p"}}}`)}}, got.PodOverrides); diff != "" {
		t.Errorf("applied layers mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"A": "d", "B": "g"}, got.EnvOverrides); diff != "" {
		t.Errorf("env overrides mismatch (-want +got):\n%s", diff)
	}
	require.Equal(t, []string{"--g"}, got.CliOverrides)
	require.ErrorIs(t, got.IgnoredPodOverrides[0].Errors[0], ErrUnknownField)
	require.ErrorIs(t, got.IgnoredPodOverrides[1].Errors[0], ErrMalformed)
}

func TestIgnoredPodOverrideStringNamesTheLayerAndEveryField(t *testing.T) {
	got, err := mergeOverrides(nil, nil, &v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"containres":[],"hostNetwrk":true}}`)})
	require.NoError(t, err)
	require.Len(t, got.IgnoredPodOverrides, 1)
	want := "spec.roles.server.roleGroups.default.podOverrides is not applied: " +
		"spec.roles.server.roleGroups.default.podOverrides.spec.containres: unknown field; " +
		"spec.roles.server.roleGroups.default.podOverrides.spec.hostNetwrk: unknown field"
	if diff := cmp.Diff(want, got.IgnoredPodOverrides[0].String()); diff != "" {
		t.Errorf("String() mismatch (-want +got):\n%s", diff)
	}
}

func TestMergeOverridesRequiresNames(t *testing.T) {
	_, err := MergeOverrides(Layers[v1alpha1.OverridesSpec]{RoleName: "server", RoleGroup: &v1alpha1.OverridesSpec{}})
	require.ErrorIs(t, err, failure.ErrInvalid)
	require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
	require.Equal(t, "configfold.Layers.RoleGroupName", failure.FieldOf(err))
}

func TestPodOverridePatchesKeepsTheLayerOrder(t *testing.T) {
	got, err := mergeOverrides(
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"d"}}}`)},
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"r"}}}`)},
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"g"}}}`)},
	)
	require.NoError(t, err)
	want := []string{`{"metadata":{"labels":{"a":"d"}}}`, `{"metadata":{"labels":{"a":"r"}}}`, `{"metadata":{"labels":{"a":"g"}}}`}
	var patches []string
	for _, p := range got.PodOverridePatches() {
		patches = append(patches, string(p))
	}
	if diff := cmp.Diff(want, patches); diff != "" {
		t.Errorf("patches mismatch (-want +got):\n%s", diff)
	}
}

func TestMergeOverridesResultSharesNothingWithItsInputs(t *testing.T) {
	in := func() *v1alpha1.OverridesSpec {
		return &v1alpha1.OverridesSpec{
			ConfigOverrides: map[string]map[string]string{"f": {"k": "v"}},
			EnvOverrides:    map[string]string{"E": "v"},
			CliOverrides:    []string{"--x"},
			PodOverrides:    raw(`{"metadata":{"labels":{"a":"b"}}}`),
		}
	}
	role := in()
	got, err := mergeOverrides(nil, role, nil)
	require.NoError(t, err)
	got.ConfigOverrides["f"]["k"] = "mutated"
	got.EnvOverrides["E"] = "mutated"
	got.CliOverrides[0] = "mutated"
	got.PodOverrides[0].Patch[2] = 'X'
	if diff := cmp.Diff(in(), role); diff != "" {
		t.Errorf("input changed through the result (-before +after):\n%s", diff)
	}
}
