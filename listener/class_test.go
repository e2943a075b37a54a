package listener_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/listener"
)

func TestServiceType(t *testing.T) {
	tests := []struct {
		class listenerv1alpha1.Class
		want  corev1.ServiceType
	}{
		{listenerv1alpha1.ClusterInternal, corev1.ServiceTypeClusterIP},
		{listenerv1alpha1.ExternalUnstable, corev1.ServiceTypeNodePort},
		{listenerv1alpha1.ExternalStable, corev1.ServiceTypeLoadBalancer},
		{"", corev1.ServiceTypeClusterIP},
		{"my-class", corev1.ServiceTypeClusterIP},
	}
	for _, tt := range tests {
		if got := listener.ServiceType(tt.class); got != tt.want {
			t.Errorf("ServiceType(%q) = %s, want %s", tt.class, got, tt.want)
		}
	}
}

func TestClassOfTakesTheHighestLayerThatStatesOne(t *testing.T) {
	stable := ptr.To(listenerv1alpha1.ExternalStable)
	unstable := ptr.To(listenerv1alpha1.ExternalUnstable)
	tests := []struct {
		name   string
		layers []*listenerv1alpha1.Class
		want   listenerv1alpha1.Class
	}{
		{"none states one", []*listenerv1alpha1.Class{nil, nil}, listenerv1alpha1.ClusterInternal},
		{"the role", []*listenerv1alpha1.Class{stable, nil}, listenerv1alpha1.ExternalStable},
		{"the group over the role", []*listenerv1alpha1.Class{stable, unstable}, listenerv1alpha1.ExternalUnstable},
	}
	for _, tt := range tests {
		if got := listener.ClassOf(listenerv1alpha1.ClusterInternal, tt.layers...); got != tt.want {
			t.Errorf("%s: ClassOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}
