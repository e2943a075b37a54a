package builders

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Prometheus scrape keys set on a metrics Service, as labels for
// ServiceMonitor-style selection and as annotations for annotation-driven
// discovery.
const (
	PrometheusScrapeKey = "prometheus.io/scrape"
	PrometheusPortKey   = "prometheus.io/port"
	PrometheusPathKey   = "prometheus.io/path"
	PrometheusSchemeKey = "prometheus.io/scheme"
)

// ServiceBuilder builds one of a role group's Services. Create it with
// NewService, NewHeadlessService or NewMetricsService.
type ServiceBuilder struct {
	scope       Scope
	name        string
	headless    bool
	serviceType corev1.ServiceType
	ports       []corev1.ServicePort
	notReady    bool
	labels      map[string]string
	annotations map[string]string
}

// NewService starts the role group's client Service, named like the role
// group (Scope.ResourceName) and selecting its pods.
func NewService(scope Scope) *ServiceBuilder {
	return &ServiceBuilder{scope: scope, name: scope.ResourceName()}
}

// NewHeadlessService starts the role group's headless Service
// ("<name>-headless"), the StatefulSet's governing Service that gives each
// pod a stable DNS name.
func NewHeadlessService(scope Scope) *ServiceBuilder {
	return &ServiceBuilder{scope: scope, name: HeadlessServiceName(scope.ResourceName()), headless: true}
}

// NewMetricsService starts the role group's metrics Service
// ("<name>-metrics"): headless, exposing port, marked with the
// metrics-service slot label and the Prometheus scrape labels and
// annotations. Its name cannot be changed, because cleanup finds it by that
// derived name.
func NewMetricsService(scope Scope, port corev1.ServicePort, path string) *ServiceBuilder {
	b := NewHeadlessService(scope)
	b.name = MetricsServiceName(scope.ResourceName())
	b.ports = []corev1.ServicePort{*port.DeepCopy()}
	b.labels = map[string]string{
		commonsv1alpha1.LabelMetricsService: "true",
		PrometheusScrapeKey:                 "true",
	}
	b.annotations = map[string]string{
		PrometheusScrapeKey: "true",
		PrometheusPortKey:   strconv.Itoa(int(port.Port)),
		PrometheusPathKey:   path,
		PrometheusSchemeKey: "http",
	}
	return b
}

// WithPorts adds ports.
func (b *ServiceBuilder) WithPorts(ports ...corev1.ServicePort) *ServiceBuilder {
	for i := range ports {
		b.ports = append(b.ports, *ports[i].DeepCopy())
	}
	return b
}

// WithType sets the Service type of a client Service (default ClusterIP).
// It has no effect on headless Services.
func (b *ServiceBuilder) WithType(t corev1.ServiceType) *ServiceBuilder {
	b.serviceType = t
	return b
}

// WithPublishNotReadyAddresses publishes the DNS records of pods that are
// not ready, which members of a quorum need to find each other while
// starting.
func (b *ServiceBuilder) WithPublishNotReadyAddresses(publish bool) *ServiceBuilder {
	b.notReady = publish
	return b
}

// Build returns the Service, or the operator's mistakes in its ports,
// joined: a client Service without ports (the API server refuses one), or
// two ports of one name, or of one number and protocol.
func (b *ServiceBuilder) Build() (*corev1.Service, error) {
	if err := b.validatePorts(); err != nil {
		return nil, err
	}
	meta := b.scope.objectMeta(b.name)
	maps.Copy(meta.Labels, b.labels)
	if len(b.annotations) > 0 {
		meta.Annotations = maps.Clone(b.annotations)
	}
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: meta,
		Spec: corev1.ServiceSpec{
			Selector:                 b.scope.SelectorLabels(),
			Ports:                    b.ports,
			Type:                     b.serviceType,
			PublishNotReadyAddresses: b.notReady,
		},
	}
	if b.headless {
		svc.Spec.ClusterIP = corev1.ClusterIPNone
		svc.Spec.Type = corev1.ServiceTypeClusterIP
	}
	return svc.DeepCopy(), nil
}

func (b *ServiceBuilder) validatePorts() error {
	var errs []error
	if len(b.ports) == 0 && !b.headless {
		errs = append(errs, operatorError("servicePorts", "the Service %s has no ports", b.name))
	}
	names := map[string]bool{}
	numbers := map[string]bool{}
	for _, p := range b.ports {
		if names[p.Name] {
			errs = append(errs, operatorError("servicePorts["+p.Name+"]", "the Service %s has two ports of this name", b.name))
		}
		names[p.Name] = true
		number := fmt.Sprintf("%d/%s", p.Port, cmp.Or(p.Protocol, corev1.ProtocolTCP))
		if numbers[number] {
			errs = append(errs, operatorError("servicePorts["+p.Name+"]", "the Service %s exposes %s twice", b.name, number))
		}
		numbers[number] = true
	}
	return errors.Join(errs...)
}
