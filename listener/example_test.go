package listener_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/listener"
)

// A role exposed by the user's listener class: the client Service's type,
// then, once the Service is applied and its node port allocated, the
// discovery ConfigMap clients read.
func Example() {
	scope := builders.Scope{Namespace: "data", Cluster: "prod", Role: "broker", RoleGroup: "default"}
	class := listener.ClassOf(listenerv1alpha1.ClusterInternal, nil, new(listenerv1alpha1.ExternalUnstable))
	svc, _ := builders.NewService(scope).
		WithType(listener.ServiceType(class)).
		WithPorts(corev1.ServicePort{Name: "kafka", Port: 9092}).
		Build()
	fmt.Println(class, svc.Spec.Type)

	live := svc.DeepCopy() // as read back from the API server
	live.ObjectMeta = metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name}
	live.Spec.Ports[0].NodePort = 31092
	addrs, err := listener.ServiceAddresses(live, "kafka", listener.AddressOptions{NodeAddresses: []string{"10.0.0.2", "10.0.0.1"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	cm, _ := listener.DiscoveryConfigMap(scope.ClusterScope(), map[string]string{"KAFKA": listener.Join(addrs)})
	fmt.Println(cm.Name, cm.Data["KAFKA"])
	// Output:
	// external-unstable NodePort
	// prod 10.0.0.1:31092,10.0.0.2:31092
}
