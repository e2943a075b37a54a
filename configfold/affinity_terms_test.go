package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// roleSelector is what builders.Scope.SelectorLabels returns for a role:
// instance, component and managed-by, so another product's cluster of the
// same name is not selected.
func roleSelector() map[string]string {
	return map[string]string{
		"app.kubernetes.io/instance":   "simple",
		"app.kubernetes.io/component":  "datanode",
		"app.kubernetes.io/managed-by": "hdfs.opkit.dev",
	}
}

func TestPreferredAffinityTermUsesTheSelectorItIsGiven(t *testing.T) {
	got, err := PreferredAffinityTerm(70, TopologyKeyHostname, roleSelector())
	require.NoError(t, err)
	want := corev1.WeightedPodAffinityTerm{
		Weight: 70,
		PodAffinityTerm: corev1.PodAffinityTerm{
			LabelSelector: &metav1.LabelSelector{MatchLabels: roleSelector()},
			TopologyKey:   "kubernetes.io/hostname",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PreferredAffinityTerm() mismatch (-want +got):\n%s", diff)
	}
}

func TestPreferredAffinityTermCopiesTheSelector(t *testing.T) {
	selector := roleSelector()
	term, err := PreferredAffinityTerm(20, TopologyKeyZone, selector)
	require.NoError(t, err)
	selector["extra"] = "x"
	if diff := cmp.Diff(roleSelector(), term.PodAffinityTerm.LabelSelector.MatchLabels); diff != "" {
		t.Errorf("term shares the selector map (-want +got):\n%s", diff)
	}
}

func TestPreferredAffinityTermRefusesWhatWouldMisbehave(t *testing.T) {
	tests := []struct {
		name        string
		weight      int32
		topologyKey string
		selector    map[string]string
		wantField   string
	}{
		{name: "an empty selector would select every pod", weight: 70, topologyKey: TopologyKeyHostname,
			selector: map[string]string{}, wantField: "configfold.PreferredAffinityTerm.selector"},
		{name: "a nil selector too", weight: 70, topologyKey: TopologyKeyHostname,
			wantField: "configfold.PreferredAffinityTerm.selector"},
		{name: "a weight of zero", topologyKey: TopologyKeyHostname, selector: roleSelector(),
			wantField: "configfold.PreferredAffinityTerm.weight"},
		{name: "a weight above 100", weight: 101, topologyKey: TopologyKeyHostname, selector: roleSelector(),
			wantField: "configfold.PreferredAffinityTerm.weight"},
		{name: "an empty topology key", weight: 1, selector: roleSelector(),
			wantField: "configfold.PreferredAffinityTerm.topologyKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PreferredAffinityTerm(tt.weight, tt.topologyKey, tt.selector)
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
			require.Equal(t, tt.wantField, failure.FieldOf(err))
			require.Equal(t, corev1.WeightedPodAffinityTerm{}, got)
		})
	}
}

func TestTopologyKeys(t *testing.T) {
	if diff := cmp.Diff([]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"},
		[]string{TopologyKeyHostname, TopologyKeyZone}); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
