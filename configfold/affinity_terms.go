package configfold

import (
	"maps"

	"github.com/opkit-dev/opkit/api/failure"

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
// The selector is the caller's: take it from the labels the workloads are
// built with (builders.Scope.SelectorLabels for a role or cluster scope), so
// the term selects exactly the pods of this product's cluster. A selector
// on the instance name alone would also match another product's cluster of
// the same name, and a term matching no pod at all is not an error anywhere.
// The selector map is copied.
//
// An empty selector, a weight outside 1 to 100 or an empty topology key is
// refused with a *failure.InvalidError blamed on the operator: the first
// would select every pod of the namespace, the others would only fail when
// the StatefulSet is applied, naming a field the operator never wrote.
//
// There is no constructor for a required term, on purpose: a required spread
// turns a cluster with fewer nodes than replicas into pods that stay Pending,
// with no way to say "as far as possible". An operator that truly needs one
// writes the corev1 term itself.
func PreferredAffinityTerm(weight int32, topologyKey string, selector map[string]string) (corev1.WeightedPodAffinityTerm, error) {
	switch {
	case len(selector) == 0:
		return corev1.WeightedPodAffinityTerm{}, failure.Invalid(failure.AuthorOperator, "configfold.PreferredAffinityTerm.selector",
			"an empty selector would select every pod of the namespace; pass the selector labels of the scope")
	case weight < 1 || weight > 100:
		return corev1.WeightedPodAffinityTerm{}, failure.Invalid(failure.AuthorOperator, "configfold.PreferredAffinityTerm.weight",
			"weight %d is outside 1 to 100", weight)
	case topologyKey == "":
		return corev1.WeightedPodAffinityTerm{}, failure.Invalid(failure.AuthorOperator, "configfold.PreferredAffinityTerm.topologyKey",
			"a topology key is required, such as TopologyKeyHostname")
	}
	return corev1.WeightedPodAffinityTerm{
		Weight: weight,
		PodAffinityTerm: corev1.PodAffinityTerm{
			LabelSelector: &metav1.LabelSelector{MatchLabels: maps.Clone(selector)},
			TopologyKey:   topologyKey,
		},
	}, nil
}
