package operator

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/configfold"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/reconciler"
)

// The roles and their ports.
const (
	RoleController = "controller"
	RoleBroker     = "broker"

	controllerPort = 9093
	clientPort     = 9092
	metricsPort    = 9404
	dataDir        = "/var/lib/kafka/data"
)

// declareRoles is the role catalog: what a controller and a broker are.
// It depends on the resource only through the credentials Secret the
// brokers read, and the anti-affinity selector, which names the cluster.
func declareRoles(_ context.Context, cr *v1alpha1.KafkaCluster) (reconciler.Catalog, error) {
	logging := []productlogging.Producer{{Container: "kafka", Framework: productlogging.Log4j2}}
	metrics := &reconciler.MetricsEndpoint{Port: corev1.ServicePort{Name: "metrics", Port: metricsPort, TargetPort: intstr.FromString("metrics")}}
	start := `set -a; . /opkit/config/kafka.env; set +a; ordinal="${HOSTNAME##*-}"; ` +
		`exec /opt/kafka/bin/kafka-server-start.sh /opkit/config/server.properties --override node.id="$(( NODE_ID_BASE + ordinal ))"`
	controllerCommand := []string{"/bin/bash", "-c", start}
	brokerCommand := []string{"/bin/bash", "-c", start + ` --override advertised.listeners="SASL_PLAINTEXT://${HOSTNAME}.${POD_DOMAIN}:` + strconv.Itoa(clientPort) + `"`}
	probe := func(port int32) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(port)}}, PeriodSeconds: 10}
	}
	controllerDefaults, err := defaults(cr, RoleController)
	if err != nil {
		return nil, err
	}
	brokerDefaults, err := defaults(cr, RoleBroker)
	if err != nil {
		return nil, err
	}
	return reconciler.Catalog{
		RoleController: {
			MainContainer:            "kafka",
			Command:                  controllerCommand,
			ContainerPorts:           []corev1.ContainerPort{{Name: "controller", ContainerPort: controllerPort}},
			PublishNotReadyAddresses: true, // the quorum forms while its members start
			Metrics:                  metrics,
			ReadinessProbe:           probe(controllerPort),
			DataVolume:               &builders.DataVolume{MountPath: dataDir},
			LogProducers:             logging,
			ConfigDefaults:           controllerDefaults,
		},
		RoleBroker: {
			MainContainer:  "kafka",
			Command:        brokerCommand,
			ContainerPorts: []corev1.ContainerPort{{Name: "client", ContainerPort: clientPort}},
			ServicePorts:   []corev1.ServicePort{{Name: "client", Port: clientPort, TargetPort: intstr.FromString("client")}},
			Metrics:        metrics,
			ReadinessProbe: probe(clientPort),
			DataVolume:     &builders.DataVolume{MountPath: dataDir},
			LogProducers:   logging,
			Env: []corev1.EnvVar{{Name: "KAFKA_SASL_USERS", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: cr.Spec.CredentialsSecret}, Key: "users",
			}}}},
			ConfigDefaults: brokerDefaults,
		},
	}, nil
}

// defaults are a role's config defaults: modest resources, 1Gi of
// storage, and spreading the role's pods over nodes where possible.
func defaults(cr *v1alpha1.KafkaCluster, role string) (*commonsv1alpha1.RoleGroupConfigSpec, error) {
	scope := builders.Scope{Namespace: cr.Namespace, Cluster: cr.Name, Role: role, ProductName: "kafka", ManagedBy: ManagedBy}
	term, err := configfold.PreferredAffinityTerm(70, corev1.LabelHostname, scope.RoleSelectorLabels())
	if err != nil {
		return nil, err
	}
	aff, err := configfold.EncodeAffinity(&corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{term},
	}})
	if err != nil {
		return nil, err
	}
	cpuMin, cpuMax, mem, storage := resource.MustParse("250m"), resource.MustParse("1"), resource.MustParse("1Gi"), resource.MustParse("1Gi")
	return &commonsv1alpha1.RoleGroupConfigSpec{
		Affinity: aff,
		Resources: &commonsv1alpha1.ResourcesSpec{
			CPU:     &commonsv1alpha1.CPUResource{Min: &cpuMin, Max: &cpuMax},
			Memory:  &commonsv1alpha1.MemoryResource{Limit: &mem},
			Storage: &commonsv1alpha1.StorageResource{Capacity: &storage},
		},
	}, nil
}
