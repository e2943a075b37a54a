package listener

import (
	corev1 "k8s.io/api/core/v1"

	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
)

// ServiceType returns the type of the Service that exposes pods of class:
// ClusterIP for cluster-internal, NodePort for external-unstable,
// LoadBalancer for external-stable. Any other class, the empty one
// included, is ClusterIP: a product never exposes more than it was asked
// to.
func ServiceType(class listenerv1alpha1.Class) corev1.ServiceType {
	switch class {
	case listenerv1alpha1.ExternalUnstable:
		return corev1.ServiceTypeNodePort
	case listenerv1alpha1.ExternalStable:
		return corev1.ServiceTypeLoadBalancer
	default:
		return corev1.ServiceTypeClusterIP
	}
}

// ClassOf returns the class stated, lowest precedence first, by the last
// layer that states one (such as the role's config, then the role
// group's), or def when none does.
func ClassOf(def listenerv1alpha1.Class, layers ...*listenerv1alpha1.Class) listenerv1alpha1.Class {
	out := def
	for _, c := range layers {
		if c != nil {
			out = *c
		}
	}
	return out
}
