package builders

import (
	"maps"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// RoleGroupMarkerValue is the value of the RoleGroupMarkerLabelKey label.
const RoleGroupMarkerValue = "true"

// RecommendedLabels returns the app.kubernetes.io labels for the scope:
// name and version when they are legal label values (a free-form product
// version must cost one cosmetic label, never the whole object), instance,
// component for a role, role-group for a role group, and managed-by.
// Instance and component are not checked: they also feed the selector, where
// an illegal value is fatal anyway.
func (s Scope) RecommendedLabels() map[string]string {
	labels := map[string]string{
		commonsv1alpha1.LabelInstance:  s.Cluster,
		commonsv1alpha1.LabelManagedBy: s.managedBy(),
	}
	if isLabelValue(s.ProductName) {
		labels[commonsv1alpha1.LabelName] = s.ProductName
	}
	if isLabelValue(s.ProductVersion) {
		labels[commonsv1alpha1.LabelVersion] = s.ProductVersion
	}
	if s.Role != "" {
		labels[commonsv1alpha1.LabelComponent] = s.Role
	}
	if s.RoleGroup != "" {
		labels[commonsv1alpha1.LabelRoleGroup] = s.RoleGroup
	}
	return labels
}

// SelectorLabels returns the labels that select the scope's pods: instance,
// managed-by and the product name (when it is a legal label value) for the
// cluster, component for a role, the role-group marker key for a role group,
// and the product's identity labels. They are the only selector labels in
// opkit: StatefulSets, Services, PodDisruptionBudgets and affinity terms all
// take them from here.
//
// The product name is part of them so that two products' clusters of the
// same name in one namespace never select each other's pods; it is constant
// for an operator, so it is safe in an immutable StatefulSet selector.
// Version and role-group never are: the version changes on every upgrade,
// and the marker key already pins the role group.
func (s Scope) SelectorLabels() map[string]string {
	labels := map[string]string{
		commonsv1alpha1.LabelInstance:  s.Cluster,
		commonsv1alpha1.LabelManagedBy: s.managedBy(),
	}
	if isLabelValue(s.ProductName) {
		labels[commonsv1alpha1.LabelName] = s.ProductName
	}
	if s.Role != "" {
		labels[commonsv1alpha1.LabelComponent] = s.Role
	}
	if s.RoleGroup != "" {
		labels[RoleGroupMarkerLabelKey(s.Cluster, s.RoleGroup)] = RoleGroupMarkerValue
	}
	maps.Copy(labels, s.IdentityLabels)
	return labels
}

// ClusterSelectorLabels returns the labels selecting every pod of the
// scope's cluster: ClusterScope().SelectorLabels(). Use it for affinity
// terms that keep a cluster together.
func (s Scope) ClusterSelectorLabels() map[string]string { return s.ClusterScope().SelectorLabels() }

// RoleSelectorLabels returns the labels selecting every pod of the scope's
// role, across its role groups: RoleScope().SelectorLabels(). Use it for
// affinity terms that spread a role.
func (s Scope) RoleSelectorLabels() map[string]string { return s.RoleScope().SelectorLabels() }

// Labels returns the labels of every object built for the scope and of its
// pod templates, layered low to high: the cluster resource's labels (without
// the reserved slot marker keys), the recommended labels, the selector
// labels and the product's identity labels. A cluster label colliding with
// a framework key is therefore inert, and the pod template always matches
// the selector.
func (s Scope) Labels() map[string]string {
	labels := WithoutReservedLabels(s.ClusterLabels)
	maps.Copy(labels, s.RecommendedLabels())
	maps.Copy(labels, s.SelectorLabels())
	maps.Copy(labels, s.IdentityLabels)
	return labels
}

// WithoutReservedLabels returns a copy of labels without the slot marker
// keys of commonsv1alpha1.ReservedLabelKeys and without the keys starting
// with one of commonsv1alpha1.ReservedLabelPrefixes. A reclaim selects
// objects by the slot markers, and the shard labels change when the
// resource moves between replicas, so a cluster resource carrying one must
// not stamp it on everything built for it. The result is never nil.
func WithoutReservedLabels(labels map[string]string) map[string]string {
	out := make(map[string]string, len(labels))
	maps.Copy(out, labels)
	for _, k := range commonsv1alpha1.ReservedLabelKeys() {
		delete(out, k)
	}
	for k := range out {
		for _, p := range commonsv1alpha1.ReservedLabelPrefixes() {
			if strings.HasPrefix(k, p) {
				delete(out, k)
			}
		}
	}
	return out
}

// isLabelValue reports whether v is a non-empty legal label value.
func isLabelValue(v string) bool {
	return v != "" && len(validation.IsValidLabelValue(v)) == 0
}
