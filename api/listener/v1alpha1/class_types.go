package v1alpha1

// Class is how a role's pods are reached: from inside the cluster only,
// from outside at addresses that may change, or from outside at stable
// addresses. A CRD field of this type accepts only the three classes.
//
// +kubebuilder:validation:Enum=cluster-internal;external-unstable;external-stable
type Class string

// The listener classes.
const (
	// ClusterInternal is reachable from inside the cluster only.
	ClusterInternal Class = "cluster-internal"
	// ExternalUnstable is reachable from outside the cluster at addresses
	// that may change when pods move (node ports).
	ExternalUnstable Class = "external-unstable"
	// ExternalStable is reachable from outside the cluster at a stable
	// address (a load balancer).
	ExternalStable Class = "external-stable"
)

// Classes returns the classes, in the order of the constants.
func Classes() []Class { return []Class{ClusterInternal, ExternalUnstable, ExternalStable} }

// Known reports whether c is one of Classes.
func (c Class) Known() bool {
	switch c {
	case ClusterInternal, ExternalUnstable, ExternalStable:
		return true
	}
	return false
}
