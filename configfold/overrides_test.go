package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestMergeOverrides(t *testing.T) {
	tests := []struct {
		name                 string
		product, role, group *v1alpha1.OverridesSpec
		want                 MergedOverrides
	}{
		{name: "nothing stated merges to nothing"},
		{name: "config overrides merge per file and per key",
			product: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"tickTime": "2000", "initLimit": "5"}}},
			role: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"initLimit": "10"}, "security.properties": {"a": "1"}}},
			group: &v1alpha1.OverridesSpec{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg": {"tickTime": "3000"}}},
			want: MergedOverrides{ConfigOverrides: map[string]map[string]string{
				"zoo.cfg":             {"tickTime": "3000", "initLimit": "10"},
				"security.properties": {"a": "1"}}}},
		{name: "env overrides merge per variable",
			product: &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"A": "p", "B": "p"}},
			group:   &v1alpha1.OverridesSpec{EnvOverrides: map[string]string{"B": "g", "C": "g"}},
			want:    MergedOverrides{EnvOverrides: map[string]string{"A": "p", "B": "g", "C": "g"}}},
		{name: "cli overrides are replaced by the last layer stating them",
			product: &v1alpha1.OverridesSpec{CliOverrides: []string{"--a"}},
			role:    &v1alpha1.OverridesSpec{CliOverrides: []string{"--b", "--c"}},
			group:   &v1alpha1.OverridesSpec{},
			want:    MergedOverrides{CliOverrides: []string{"--b", "--c"}}},
		{name: "an empty cli list clears the ones beneath",
			role:  &v1alpha1.OverridesSpec{CliOverrides: []string{"--b"}},
			group: &v1alpha1.OverridesSpec{CliOverrides: []string{}},
			want:  MergedOverrides{CliOverrides: []string{}}},
		{name: "pod overrides stay ordered layers",
			product: &v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"p"}}}`)},
			group:   &v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"priorityClassName":"high"}}`)},
			want: MergedOverrides{PodOverrides: []PodOverrideLayer{
				{Layer: LayerProduct, Patch: []byte(`{"metadata":{"labels":{"a":"p"}}}`),
					Template: &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "p"}}}},
				{Layer: LayerRoleGroup, Patch: []byte(`{"spec":{"priorityClassName":"high"}}`),
					Template: &corev1.PodTemplateSpec{Spec: corev1.PodSpec{PriorityClassName: "high"}}},
			}}},
		{name: "a null pod override states nothing",
			role: &v1alpha1.OverridesSpec{PodOverrides: raw(`null`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MergeOverrides(tt.product, tt.role, tt.group)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("MergeOverrides() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMergeOverridesCollectsPodOverridesThatDoNotDecode(t *testing.T) {
	got := MergeOverrides(
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"metadata":{"labels":{"a":"p"}}}`)},
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"containres":[]}}`)},
		&v1alpha1.OverridesSpec{PodOverrides: raw(`{"spec":{"priorityClassName":7}}`)},
	)
	var layers []Layer
	for _, l := range got.PodOverrides {
		layers = append(layers, l.Layer)
	}
	if diff := cmp.Diff([]Layer{LayerProduct}, layers); diff != "" {
		t.Errorf("applied layers mismatch (-want +got):\n%s", diff)
	}
	var reported []FieldError
	for _, err := range got.PodOverrideErrors {
		var fe *FieldError
		require.ErrorAs(t, err, &fe)
		reported = append(reported, FieldError{Layer: fe.Layer, Field: fe.Field})
	}
	want := []FieldError{
		{Layer: LayerRole, Field: "podOverrides.spec.containres"},
		{Layer: LayerRoleGroup, Field: "podOverrides.spec.priorityClassName"},
	}
	if diff := cmp.Diff(want, reported); diff != "" {
		t.Errorf("reported errors mismatch (-want +got):\n%s", diff)
	}
	require.ErrorIs(t, got.PodOverrideError(), ErrUnknownField)
	require.ErrorIs(t, got.PodOverrideError(), ErrMalformed)
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
	got := MergeOverrides(nil, role, nil)
	got.ConfigOverrides["f"]["k"] = "mutated"
	got.EnvOverrides["E"] = "mutated"
	got.CliOverrides[0] = "mutated"
	got.PodOverrides[0].Patch[2] = 'X'
	if diff := cmp.Diff(in(), role); diff != "" {
		t.Errorf("input changed through the result (-before +after):\n%s", diff)
	}
}
