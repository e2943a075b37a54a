package builders

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Scope says whose object is being built: a cluster, one of its roles, or
// one of its role groups. Every builder takes one; it supplies the
// namespace, the derived name and the labels, so objects of one role group
// always agree on them.
//
// Build the cluster's scope once and derive the narrower ones with
// RoleScope and RoleGroupScope (or the wider ones with ClusterScope), so
// the product fields are never retyped or blanked by hand.
type Scope struct {
	// Namespace is the cluster resource's namespace; every object is built
	// in it.
	Namespace string
	// Cluster is the cluster resource's name.
	Cluster string
	// Role is the role name; empty for cluster-wide objects.
	Role string
	// RoleGroup is the role-group name; empty for role-level and
	// cluster-wide objects.
	RoleGroup string

	// ProductName becomes app.kubernetes.io/name, on objects and in
	// selectors; omitted when empty or not a legal label value.
	ProductName string
	// ProductVersion becomes app.kubernetes.io/version; omitted when empty
	// or not a legal label value.
	ProductVersion string
	// ManagedBy becomes app.kubernetes.io/managed-by. Empty means
	// commonsv1alpha1.DefaultManagedBy.
	ManagedBy string

	// ClusterLabels are the cluster resource's own labels: the one channel
	// through which users put labels on workloads. They are the lowest
	// layer, and the reserved slot marker keys are never taken from them.
	ClusterLabels map[string]string
	// IdentityLabels are a product's own identity labels, the highest
	// layer; they are also added to selectors.
	IdentityLabels map[string]string
}

// ClusterScope returns the scope of the whole cluster: s without role and
// role group.
func (s Scope) ClusterScope() Scope {
	s.Role, s.RoleGroup = "", ""
	return s
}

// RoleScope returns the scope of s's role, for role-level objects such as
// the role's PodDisruptionBudget: s without the role group.
func (s Scope) RoleScope() Scope {
	s.RoleGroup = ""
	return s
}

// RoleGroupScope returns the scope of one role group of s's role.
func (s Scope) RoleGroupScope(group string) Scope {
	s.RoleGroup = group
	return s
}

// ResourceName returns the scope's bounded object name: RoleGroupResourceName
// for a role group, RoleResourceName for a role, and the cluster name for a
// cluster-wide scope.
func (s Scope) ResourceName() string {
	switch {
	case s.RoleGroup != "":
		return RoleGroupResourceName(s.Cluster, s.Role, s.RoleGroup)
	case s.Role != "":
		return RoleResourceName(s.Cluster, s.Role)
	default:
		return s.Cluster
	}
}

// FieldPath returns the absolute path of field (relative to layer, e.g.
// "config.gracefulShutdownTimeout") for the scope's role and role group, as
// commonsv1alpha1.Layer.FieldPath spells it.
func (s Scope) FieldPath(layer commonsv1alpha1.Layer, field string) string {
	return layer.FieldPath(s.Role, s.RoleGroup, field)
}

// managedBy returns the managed-by label value, defaulted.
func (s Scope) managedBy() string {
	if s.ManagedBy == "" {
		return commonsv1alpha1.DefaultManagedBy
	}
	return s.ManagedBy
}

// objectMeta returns the metadata of an object of the scope called name.
func (s Scope) objectMeta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: s.Namespace, Labels: s.Labels()}
}
