package configfold

import (
	"maps"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Topology keys for spreading or colocating pods.
const (
	// TopologyKeyHostname spreads or colocates pods per node.
	TopologyKeyHostname = corev1.LabelHostname
	// TopologyKeyZone spreads or colocates pods per availability zone.
	TopologyKeyZone = corev1.LabelTopologyZone
)

// PreferredAffinityTerm builds one weighted pod (anti-)affinity term: pods
// matching selector, counted per topologyKey, with the given weight (the
// API server accepts 1 to 100). Combine terms into a corev1.PodAffinity or
// corev1.PodAntiAffinity to build a composite default, for example spread a
// role's pods across nodes while keeping the cluster together.
//
// There is no constructor for a required term, on purpose: a required spread
// turns a cluster with fewer nodes than replicas into pods that stay Pending,
// with no way to say "as far as possible". An operator that truly needs one
// writes the corev1 term itself. The selector map is copied.
func PreferredAffinityTerm(weight int32, topologyKey string, selector map[string]string) corev1.WeightedPodAffinityTerm {
	return corev1.WeightedPodAffinityTerm{
		Weight: weight,
		PodAffinityTerm: corev1.PodAffinityTerm{
			LabelSelector: &metav1.LabelSelector{MatchLabels: maps.Clone(selector)},
			TopologyKey:   topologyKey,
		},
	}
}

// ClusterSelectorLabels selects every pod of a cluster, by the identity
// label opkit puts on them. Use it instead of typing the label key, so the
// selector keeps matching if the key ever changes.
func ClusterSelectorLabels(cluster string) map[string]string {
	return map[string]string{v1alpha1.LabelInstance: cluster}
}

// RoleSelectorLabels selects the pods of one role of a cluster.
func RoleSelectorLabels(cluster, role string) map[string]string {
	return map[string]string{
		v1alpha1.LabelInstance:  cluster,
		v1alpha1.LabelComponent: role,
	}
}
