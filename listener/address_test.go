package listener_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/listener"
)

func service(typ corev1.ServiceType, nodePort int32, ingress ...corev1.LoadBalancerIngress) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "data", Name: "prod-broker"},
		Spec:       corev1.ServiceSpec{Type: typ, Ports: []corev1.ServicePort{{Name: "kafka", Port: 9092, NodePort: nodePort}}},
		Status:     corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: ingress}},
	}
}

func TestServiceAddresses(t *testing.T) {
	tests := []struct {
		name string
		svc  *corev1.Service
		opts listener.AddressOptions
		want []listener.Address
	}{
		{"cluster IP: the DNS name", service(corev1.ServiceTypeClusterIP, 0), listener.AddressOptions{},
			[]listener.Address{{"prod-broker.data.svc.cluster.local", 9092}}},
		{"another cluster domain", service("", 0), listener.AddressOptions{ClusterDomain: "k8s.example"},
			[]listener.Address{{"prod-broker.data.svc.k8s.example", 9092}}},
		{"node ports on every node, sorted, once each", service(corev1.ServiceTypeNodePort, 31092),
			listener.AddressOptions{NodeAddresses: []string{"10.0.0.2", "10.0.0.1", "10.0.0.2"}},
			[]listener.Address{{"10.0.0.1", 31092}, {"10.0.0.2", 31092}}},
		{"a load balancer's addresses", service(corev1.ServiceTypeLoadBalancer, 31092,
			corev1.LoadBalancerIngress{IP: "203.0.113.7"}, corev1.LoadBalancerIngress{Hostname: "lb.example.com", IP: "203.0.113.8"}),
			listener.AddressOptions{}, []listener.Address{{"203.0.113.7", 9092}, {"lb.example.com", 9092}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := listener.ServiceAddresses(tt.svc, "kafka", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("addresses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServiceAddressesNotThereYet(t *testing.T) {
	tests := []struct {
		name string
		svc  *corev1.Service
		opts listener.AddressOptions
	}{
		{"node port not allocated", service(corev1.ServiceTypeNodePort, 0), listener.AddressOptions{NodeAddresses: []string{"10.0.0.1"}}},
		{"no node known", service(corev1.ServiceTypeNodePort, 31092), listener.AddressOptions{}},
		{"load balancer without ingress", service(corev1.ServiceTypeLoadBalancer, 31092), listener.AddressOptions{PendingRetry: time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := listener.ServiceAddresses(tt.svc, "kafka", tt.opts)
			if !errors.Is(err, failure.ErrRequeue) {
				t.Fatalf("want a requeue, got %v", err)
			}
			want := tt.opts.PendingRetry
			if want == 0 {
				want = listener.DefaultPendingRetry
			}
			if got := failure.Delay(err); got != want {
				t.Errorf("delay %s, want %s", got, want)
			}
		})
	}
	if _, err := listener.ServiceAddresses(service(corev1.ServiceTypeClusterIP, 0), "http", listener.AddressOptions{}); !errors.Is(err, failure.ErrInvalid) {
		t.Errorf("a port the Service lacks: want invalid input, got %v", err)
	}
}

func TestJoinAndURLs(t *testing.T) {
	addrs := []listener.Address{{"a.example", 2181}, {"2001:db8::1", 2181}}
	if got, want := listener.Join(addrs), "a.example:2181,[2001:db8::1]:2181"; got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if diff := cmp.Diff([]string{"https://a.example:2181/ui", "https://[2001:db8::1]:2181/ui"}, listener.URLs("https", addrs, "/ui")); diff != "" {
		t.Errorf("URLs (-want +got):\n%s", diff)
	}
}
