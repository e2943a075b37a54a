package servertest_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/listener"
	"github.com/opkit-dev/opkit/testkit"
)

// TestAddressesOfEachClass creates the client Service of each class and
// reads the addresses from what the API server made of it.
func TestAddressesOfEachClass(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	nodes := listener.AddressOptions{NodeAddresses: []string{"192.0.2.11", "192.0.2.10"}}
	apply := func(role string, class listenerv1alpha1.Class) *corev1.Service {
		t.Helper()
		scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: role, RoleGroup: "default"}
		svc, err := builders.NewService(scope).WithType(listener.ServiceType(class)).
			WithPorts(corev1.ServicePort{Name: "kafka", Port: 9092}).Build()
		require.NoError(t, err)
		require.NoError(t, cp.Client.Create(t.Context(), svc))
		return svc // the API server's answer, node ports allocated
	}

	internal := apply("internal", listenerv1alpha1.ClusterInternal)
	got, err := listener.ServiceAddresses(internal, "kafka", nodes)
	require.NoError(t, err)
	if diff := cmp.Diff([]listener.Address{{Host: "prod-internal-default." + ns + ".svc.cluster.local", Port: 9092}}, got); diff != "" {
		t.Errorf("cluster-internal (-want +got):\n%s", diff)
	}

	unstable := apply("unstable", listenerv1alpha1.ExternalUnstable)
	nodePort := unstable.Spec.Ports[0].NodePort
	require.NotZero(t, nodePort, "the API server allocates a node port")
	got, err = listener.ServiceAddresses(unstable, "kafka", nodes)
	require.NoError(t, err)
	if diff := cmp.Diff([]listener.Address{{Host: "192.0.2.10", Port: nodePort}, {Host: "192.0.2.11", Port: nodePort}}, got); diff != "" {
		t.Errorf("external-unstable (-want +got):\n%s", diff)
	}

	stable := apply("stable", listenerv1alpha1.ExternalStable)
	require.Equal(t, corev1.ServiceTypeLoadBalancer, stable.Spec.Type)
	_, err = listener.ServiceAddresses(stable, "kafka", nodes)
	require.True(t, errors.Is(err, failure.ErrRequeue), "no load balancer has answered yet: %v", err)
	// What a cloud controller writes once the load balancer is up.
	stable.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "203.0.113.7"}}
	require.NoError(t, cp.Client.Status().Update(t.Context(), stable))
	live := &corev1.Service{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(stable), live))
	got, err = listener.ServiceAddresses(live, "kafka", nodes)
	require.NoError(t, err)
	if diff := cmp.Diff([]listener.Address{{Host: "203.0.113.7", Port: 9092}}, got); diff != "" {
		t.Errorf("external-stable (-want +got):\n%s", diff)
	}

	cm, err := listener.DiscoveryConfigMap(builders.Scope{Namespace: ns, Cluster: "prod"}, map[string]string{"KAFKA": listener.Join(got)})
	require.NoError(t, err)
	require.NoError(t, cp.Client.Create(t.Context(), cm, client.DryRunAll))
}

// TestListenerVolumesAcceptedUnderRestrictedPodSecurity dry-run creates a
// StatefulSet and a pod mounting listener volumes in a restricted
// namespace.
func TestListenerVolumesAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "broker", RoleGroup: "default"}
	set := listener.NewSet(listener.Options{}).Add(
		listener.Volume{Name: "listener", Class: listenerv1alpha1.ExternalUnstable},
		listener.Volume{Name: "bootstrap", Listener: "prod-bootstrap"},
	)
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "broker"}).
		WithImage("registry.example/kafka:3.9.0", corev1.PullIfNotPresent).
		WithInjectors(set).Build()
	require.NoError(t, err)
	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, obj := range []client.Object{sts, pod} {
		if err := cp.Client.Create(t.Context(), obj, client.DryRunAll); err != nil {
			t.Errorf("dry-run create %T: %v", obj, err)
		}
	}
}
