package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

func TestServices(t *testing.T) {
	scope := testScope()
	port := corev1.ServicePort{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}
	metricsPort := corev1.ServicePort{Name: "metrics", Port: 9404, TargetPort: intstr.FromInt32(9404)}
	typeMeta := metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}
	metricsLabels := scope.Labels()
	metricsLabels[commonsv1alpha1.LabelMetricsService] = "true"
	metricsLabels[PrometheusScrapeKey] = "true"
	tests := []struct {
		name string
		got  *corev1.Service
		want *corev1.Service
	}{
		{
			name: "client",
			got:  NewService(scope).WithPorts(port).WithType(corev1.ServiceTypeNodePort).Build(),
			want: &corev1.Service{TypeMeta: typeMeta,
				ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default", Namespace: "ns", Labels: scope.Labels()},
				Spec: corev1.ServiceSpec{Selector: scope.SelectorLabels(), Ports: []corev1.ServicePort{port},
					Type: corev1.ServiceTypeNodePort}},
		},
		{
			name: "headless publishing not-ready addresses",
			got:  NewHeadlessService(scope).WithPorts(port).WithPublishNotReadyAddresses(true).Build(),
			want: &corev1.Service{TypeMeta: typeMeta,
				ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default-headless", Namespace: "ns", Labels: scope.Labels()},
				Spec: corev1.ServiceSpec{Selector: scope.SelectorLabels(), Ports: []corev1.ServicePort{port},
					Type: corev1.ServiceTypeClusterIP, ClusterIP: corev1.ClusterIPNone, PublishNotReadyAddresses: true}},
		},
		{
			name: "metrics",
			got:  NewMetricsService(scope, metricsPort, "/metrics").Build(),
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
