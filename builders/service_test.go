package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func TestServices(t *testing.T) {
	scope := testScope()
	port := corev1.ServicePort{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}
	metricsPort := corev1.ServicePort{Name: "metrics", Port: 9404, TargetPort: intstr.FromInt32(9404)}
	typeMeta := metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}
	metricsLabels := scope.Labels()
	metricsLabels[commonsv1alpha1.LabelMetricsService] = "true"
	metricsLabels[PrometheusScrapeKey] = "true"
	build := func(b *ServiceBuilder) *corev1.Service {
		svc, err := b.Build()
		require.NoError(t, err)
		return svc
	}
	tests := []struct {
		name string
		got  *corev1.Service
		want *corev1.Service
	}{
		{
			name: "client",
			got:  build(NewService(scope).WithPorts(port).WithType(corev1.ServiceTypeNodePort)),
			want: &corev1.Service{TypeMeta: typeMeta,
				ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default", Namespace: "ns", Labels: scope.Labels()},
				Spec: corev1.ServiceSpec{Selector: scope.SelectorLabels(), Ports: []corev1.ServicePort{port},
					Type: corev1.ServiceTypeNodePort}},
		},
		{
			name: "headless publishing not-ready addresses",
			got:  build(NewHeadlessService(scope).WithPorts(port).WithPublishNotReadyAddresses(true)),
			want: &corev1.Service{TypeMeta: typeMeta,
				ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default-headless", Namespace: "ns", Labels: scope.Labels()},
				Spec: corev1.ServiceSpec{Selector: scope.SelectorLabels(), Ports: []corev1.ServicePort{port},
					Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone, PublishNotReadyAddresses: true}},
		},
		{
			name: "metrics",
			got:  build(NewMetricsService(scope, metricsPort, "/metrics")),
			want: &corev1.Service{TypeMeta: typeMeta,
				ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default-metrics", Namespace: "ns", Labels: metricsLabels,
					Annotations: map[string]string{PrometheusScrapeKey: "true", PrometheusPortKey: "9404",
						PrometheusPathKey: "/metrics", PrometheusSchemeKey: "http"}},
				Spec: corev1.ServiceSpec{Selector: scope.SelectorLabels(), Ports: []corev1.ServicePort{metricsPort},
					Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("Service (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServicePortMistakesAreTheOperators(t *testing.T) {
	scope := testScope()
	http := corev1.ServicePort{Name: "http", Port: 80}
	tests := []struct {
		name string
		b    *ServiceBuilder
		want []string
	}{
		{name: "client Service without ports", b: NewService(scope),
			want: []string{"servicePorts: the Service prod-server-default has no ports"}},
		{name: "headless Service without ports is fine", b: NewHeadlessService(scope)},
		{name: "two ports of one name and number", b: NewService(scope).WithPorts(http, http),
			want: []string{
				"servicePorts[http]: the Service prod-server-default has two ports of this name",
				"servicePorts[http]: the Service prod-server-default exposes 80/TCP twice",
			}},
		{name: "one number, two protocols", b: NewService(scope).WithPorts(http,
			corev1.ServicePort{Name: "http-udp", Port: 80, Protocol: corev1.ProtocolUDP})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.b.Build()
			if diff := cmp.Diff(tt.want, messages(t, err)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if err != nil {
				require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
				require.ErrorIs(t, err, failure.ErrInvalid)
			}
		})
	}
}
