// Package v1alpha1 holds the listener class a product CRD lets its user
// choose per role (Class: ClusterInternal, ExternalUnstable,
// ExternalStable), which decides how the role's pods are reached, and the
// CSI driver and annotations of the listener operator's volumes.
//
//	type BrokerRoleConfig struct {
//		// ListenerClass exposes the brokers; unset means cluster-internal.
//		// +optional
//		ListenerClass *listenerv1alpha1.Class `json:"listenerClass,omitempty"`
//	}
//
// Module listener maps a class to a Service type, builds the listener
// volumes and the discovery data a product publishes for its clients.
package v1alpha1
