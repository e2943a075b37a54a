package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPreferredAffinityTermBuildsAWeightedTerm(t *testing.T) {
	got := PreferredAffinityTerm(70, TopologyKeyHostname, RoleSelectorLabels("simple", "datanode"))
	want := corev1.WeightedPodAffinityTerm{
		Weight: 70,
		PodAffinityTerm: corev1.PodAffinityTerm{
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
				"app.kubernetes.io/instance":  "simple",
				"app.kubernetes.io/component": "datanode",
			}},
			TopologyKey: "kubernetes.io/hostname",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PreferredAffinityTerm() mismatch (-want +got):\n%s", diff)
	}
}

func TestPreferredAffinityTermCopiesTheSelector(t *testing.T) {
	selector := ClusterSelectorLabels("simple")
	term := PreferredAffinityTerm(20, TopologyKeyZone, selector)
	selector["extra"] = "x"
	if diff := cmp.Diff(map[string]string{"app.kubernetes.io/instance": "simple"}, term.PodAffinityTerm.LabelSelector.MatchLabels); diff != "" {
		t.Errorf("term shares the selector map (-want +got):\n%s", diff)
	}
}

func TestSelectorLabels(t *testing.T) {
	tests := []struct {
		name string
		got  map[string]string
		want map[string]string
	}{
		{name: "cluster selector matches the instance label", got: ClusterSelectorLabels("prod"),
			want: map[string]string{"app.kubernetes.io/instance": "prod"}},
		{name: "role selector adds the component label", got: RoleSelectorLabels("prod", "server"),
			want: map[string]string{"app.kubernetes.io/instance": "prod", "app.kubernetes.io/component": "server"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTopologyKeys(t *testing.T) {
	if diff := cmp.Diff([]string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"},
		[]string{TopologyKeyHostname, TopologyKeyZone}); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
