package configfold

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func raw(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }

const hostnameAntiAffinity = `{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[` +
	`{"weight":70,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"zk"}},"topologyKey":"kubernetes.io/hostname"}}]}}`

func antiAffinity(weight int32) *corev1.Affinity {
	return &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: weight,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "zk"}},
				TopologyKey:   "kubernetes.io/hostname",
			},
		}},
	}}
}

func TestDecodeAffinity(t *testing.T) {
	tests := []struct {
		name      string
		in        *runtime.RawExtension
		want      *corev1.Affinity
		wantField string
		wantIs    error
	}{
		{name: "decodes a valid affinity", in: raw(hostnameAntiAffinity), want: antiAffinity(70)},
		{name: "nil states nothing", in: nil},
		{name: "empty raw states nothing", in: &runtime.RawExtension{}},
		{name: "json null states nothing", in: raw(`null`)},
		{name: "empty object decodes to no affinity", in: raw(`{}`)},
		{name: "empty member is dropped", in: raw(`{"nodeAffinity":{},` + hostnameAntiAffinity[1:]), want: antiAffinity(70)},
		{name: "misspelt member is an error naming it", in: raw(`{"nodeAffinty":{}}`),
			wantField: "nodeAffinty", wantIs: ErrUnknownField},
		{name: "field names are case-sensitive", in: raw(`{"NodeAffinity":{}}`),
			wantField: "NodeAffinity", wantIs: ErrUnknownField},
		{name: "nested unknown field is named by its path",
			in:        raw(`{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weigth":1}]}}`),
			wantField: "podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weigth", wantIs: ErrUnknownField},
		{name: "duplicate field is an error", in: raw(`{"podAffinity":{},"podAffinity":{}}`),
			wantField: "podAffinity", wantIs: ErrDuplicateField},
		{name: "trailing data is an error", in: raw(`{"podAffinity":{}} {"x":1}`), wantIs: ErrMalformed},
		{name: "wrong type is an error naming the field",
			in:        raw(`{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":"high"}]}}`),
			wantField: "podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight", wantIs: ErrMalformed},
		{name: "a list is not an affinity", in: raw(`[]`), wantIs: ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeAffinity(tt.in)
			if tt.wantIs == nil {
				require.NoError(t, err)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("DecodeAffinity() mismatch (-want +got):\n%s", diff)
				}
				return
			}
			require.Error(t, err)
			require.ErrorIs(t, err, tt.wantIs)
			var fe *FieldError
			require.ErrorAs(t, err, &fe)
			if diff := cmp.Diff(tt.wantField, fe.Field); diff != "" {
				t.Errorf("FieldError.Field mismatch (-want +got):\n%s", diff)
			}
			require.Nil(t, got)
		})
	}
}

func TestDecodeAffinityReportsEveryUnknownField(t *testing.T) {
	_, err := DecodeAffinity(raw(`{"nodeAffinty":{},"podAfinity":{}}`))
	require.Error(t, err)
	var fields []string
	for _, e := range unwrapAll(err) {
		var fe *FieldError
		require.ErrorAs(t, e, &fe)
		fields = append(fields, fe.Field)
	}
	if diff := cmp.Diff([]string{"nodeAffinty", "podAfinity"}, fields); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
}

func TestEncodeAffinity(t *testing.T) {
	t.Run("nil encodes to not stated", func(t *testing.T) {
		got, err := EncodeAffinity(nil)
		require.NoError(t, err)
		require.Nil(t, got)
	})
	t.Run("encodes the JSON a user would write", func(t *testing.T) {
		got, err := EncodeAffinity(antiAffinity(70))
		require.NoError(t, err)
		if diff := cmp.Diff(hostnameAntiAffinity, string(got.Raw)); diff != "" {
			t.Errorf("EncodeAffinity() mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("decode is its inverse", func(t *testing.T) {
		enc, err := EncodeAffinity(antiAffinity(5))
		require.NoError(t, err)
		got, err := DecodeAffinity(enc)
		require.NoError(t, err)
		if diff := cmp.Diff(antiAffinity(5), got); diff != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestNormalizeAffinity(t *testing.T) {
	tests := []struct {
		name string
		in   *corev1.Affinity
		want *corev1.Affinity
	}{
		{name: "nil stays nil"},
		{name: "an affinity with no member is nil", in: &corev1.Affinity{}},
		{name: "an empty member is absent",
			in:   &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}, PodAntiAffinity: antiAffinity(1).PodAntiAffinity},
			want: antiAffinity(1)},
		{name: "a member with only empty lists is absent",
			in: &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{},
			}}},
		{name: "an empty label selector is kept because it matches every pod",
			in: &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
					{Weight: 1, PodAffinityTerm: corev1.PodAffinityTerm{
						LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{}}, Namespaces: []string{}}},
				},
			}},
			want: &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
					{Weight: 1, PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{}}},
				},
			}}},
		{name: "an empty list JSON keeps stays empty",
			in: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{}},
			}},
			want: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{}},
			}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, NormalizeAffinity(tt.in)); diff != "" {
				t.Errorf("NormalizeAffinity() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormalizeAffinityLeavesItsInputAlone(t *testing.T) {
	in := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}, PodAntiAffinity: antiAffinity(1).PodAntiAffinity}
	before := in.DeepCopy()
	out := NormalizeAffinity(in)
	out.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight = 99
	if diff := cmp.Diff(before, in); diff != "" {
		t.Errorf("input changed (-before +after):\n%s", diff)
	}
}

func TestNormalizedAffinityEncodesLikeTheFold(t *testing.T) {
	handBuilt := &corev1.Affinity{PodAffinity: &corev1.PodAffinity{}, PodAntiAffinity: antiAffinity(70).PodAntiAffinity}
	folded, err := foldCommon(nil, nil, configWithAffinity(`{"podAffinity":{},`+hostnameAntiAffinity[1:]))
	require.NoError(t, err)
	enc, err := EncodeAffinity(NormalizeAffinity(handBuilt))
	require.NoError(t, err)
	if diff := cmp.Diff(string(folded.Config.Affinity.Raw), string(enc.Raw)); diff != "" {
		t.Errorf("bytes differ (-folded +normalized):\n%s", diff)
	}
	unnormalized, err := EncodeAffinity(handBuilt)
	require.NoError(t, err)
	require.NotEqual(t, string(folded.Config.Affinity.Raw), string(unnormalized.Raw), "precondition: normalization must matter here")
	if diff := cmp.Diff(NormalizeAffinity(handBuilt), folded.Affinity); diff != "" {
		t.Errorf("typed affinity differs from the encoded one (-normalized +folded):\n%s", diff)
	}
}

func TestFieldErrorIsFoundThroughWrapping(t *testing.T) {
	_, err := DecodeAffinity(raw(`{"nodeAffinty":{}}`))
	wrapped := errors.Join(errors.New("other"), err)
	var fe *FieldError
	require.ErrorAs(t, wrapped, &fe)
	require.Equal(t, "nodeAffinty", fe.Field)
}

func TestDecodeAffinityAloneKnowsNoLayer(t *testing.T) {
	_, err := DecodeAffinity(raw(`{"nodeAffinty":{}}`))
	require.ErrorIs(t, err, failure.ErrInvalid)
	require.Equal(t, failure.AuthorUnknown, failure.AuthorOf(err))
	require.Equal(t, "nodeAffinty", failure.FieldOf(err))
	require.Equal(t, "nodeAffinty: unknown field", err.Error())
}
