package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/inventory"
)

// ClusterSpec is the part of a product cluster's spec that opkit reconciles.
// Embed it inline in the product's spec type.
type ClusterSpec struct {
	// Image selects the product image. Unset fields fall back to the role's
	// declared image and then to the operator's defaults.
	// +optional
	Image *ImageSpec `json:"image,omitempty"`

	// ClusterOperation pauses reconciliation or stops the cluster.
	// +optional
	ClusterOperation *ClusterOperationSpec `json:"clusterOperation,omitempty"`

	// VectorAggregatorConfigMapName names a ConfigMap in the cluster's
	// namespace whose ADDRESS key holds the host:port of the Vector
	// aggregator. When set, role groups that enable the log agent ship their
	// log files there.
	// +optional
	VectorAggregatorConfigMapName string `json:"vectorAggregatorConfigMapName,omitempty"`

	// Roles maps a role name to its spec. Each name becomes part of resource
	// names and a label value, so it must be a lowercase RFC 1123 label.
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 63 && k.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))",message="role names must be lowercase RFC 1123 labels: at most 63 characters, a-z, 0-9 and '-', starting and ending with a letter or digit"
	Roles map[string]RoleSpec `json:"roles,omitempty"`
}

// ClusterOperationSpec holds the switches an administrator uses to hold a
// cluster still.
type ClusterOperationSpec struct {
	// ReconciliationPaused stops the operator from changing anything of this
	// cluster until it is cleared.
	// +optional
	// +kubebuilder:default=false
	ReconciliationPaused bool `json:"reconciliationPaused,omitempty"`

	// Stopped keeps every resource reconciled but scales every role group to
	// zero replicas.
	// +optional
	// +kubebuilder:default=false
	Stopped bool `json:"stopped,omitempty"`
}

// ClusterStatus is the part of a product cluster's status that opkit writes.
// Embed it inline in the product's status type.
type ClusterStatus struct {
	// Conditions describe the cluster's state (Available, Progressing,
	// Degraded, …), each with the generation it was computed for.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// ObservedGeneration is the spec generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Objects records the cluster-wide objects the operator applied for this
	// cluster (its ServiceAccount, workload RBAC, product objects such as a
	// discovery ConfigMap).
	// +optional
	Objects inventory.Inventory `json:"objects,omitempty"`

	// Roles records, per role, the role-level objects the operator applied
	// (the role's PodDisruptionBudget), sorted by role.
	// +optional
	// +listType=map
	// +listMapKey=role
	Roles []RoleStatus `json:"roles,omitempty"`

	// RoleGroups is the ledger of role groups whose objects were applied,
	// sorted by role, then group, each with the record of its objects. The
	// orphan cleaner reads it beside the live objects to find role groups
	// removed from the spec, and an entry leaves only once nothing of its
	// group is left.
	// +optional
	// +listType=map
	// +listMapKey=role
	// +listMapKey=group
	RoleGroups []RoleGroupStatus `json:"roleGroups,omitempty"`
}

// RoleGroupRef names one role group of a cluster.
type RoleGroupRef struct {
	// Role is the role's name.
	Role string `json:"role"`
	// Group is the role group's name.
	Group string `json:"group"`
}

// RoleStatus is the record of one role's role-level objects.
type RoleStatus struct {
	// Role is the role's name.
	Role string `json:"role"`
	// Objects records the role-level objects applied for the role.
	// +optional
	Objects inventory.Inventory `json:"objects,omitempty"`
}

// RoleGroupStatus is the ledger entry of one role group.
type RoleGroupStatus struct {
	RoleGroupRef `json:",inline"`
	// Objects records the objects applied for the role group.
	// +optional
	Objects inventory.Inventory `json:"objects,omitempty"`
}
