package builders

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Scope says whose object is being built: a cluster, one of its roles, or
// one of its role groups. Every builder takes one; it supplies the
// namespace, the derived name and the labels, so objects of one role group
// always agree on them.
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

	// ProductName becomes app.kubernetes.io/name; omitted when empty or not
	// a legal label value.
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
