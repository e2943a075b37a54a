package operator

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/sidecar"
)

// Node ids: controllers from 0, brokers from 1000, so the two roles never
// share an id; each group has a block of 100 ids, its pods numbered by
// their ordinal.
const (
	controllerIDBase = 0
	brokerIDBase     = 1000
	groupIDStride    = 100
)

// configFiles are the two files Kafka reads, in two formats: the broker
// or controller settings (server.properties) and the start script's
// environment (kafka.env). Users change any key with configOverrides.
func configFiles(_ context.Context, cr *v1alpha1.KafkaCluster, bc *reconciler.BuildContext) (map[string]map[string]string, error) {
	server := map[string]string{
		"controller.quorum.bootstrap.servers": strings.Join(controllerVoters(cr), ","),
		"controller.listener.names":           "CONTROLLER",
		"log.dirs":                            dataDir,
		"default.replication.factor":          strconv.Itoa(int(valueOr(cr.Spec.ClusterConfig, func(c *v1alpha1.KafkaClusterConfig) *int32 { return c.DefaultReplicationFactor }, 3))),
		"min.insync.replicas":                 strconv.Itoa(int(valueOr(cr.Spec.ClusterConfig, func(c *v1alpha1.KafkaClusterConfig) *int32 { return c.MinInSyncReplicas }, 2))),
	}
	base := brokerIDBase
	switch bc.Role {
	case RoleController:
		base = controllerIDBase
		server["process.roles"] = "controller"
		server["listeners"] = fmt.Sprintf("CONTROLLER://:%d", controllerPort)
		server["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT"
	case RoleBroker:
		server["process.roles"] = "broker"
		server["listeners"] = fmt.Sprintf("SASL_PLAINTEXT://:%d", clientPort)
		server["listener.security.protocol.map"] = "CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
		server["inter.broker.listener.name"] = "SASL_PLAINTEXT"
		server["sasl.enabled.mechanisms"] = "PLAIN"
	}
	env := map[string]string{
		"NODE_ID_BASE":     strconv.Itoa(base + groupSlot(bc.RoleGroup)*groupIDStride),
		"POD_DOMAIN":       fmt.Sprintf("%s.%s.svc.cluster.local", builders.HeadlessServiceName(bc.ResourceName()), cr.Namespace),
		"KAFKA_HEAP_OPTS":  heapOptions(bc),
		"KAFKA_LOG4J_OPTS": "-Dlog4j2.configurationFile=" + reconcilerConfigPath("log4j2.properties"),
	}
	return map[string]map[string]string{"server.properties": server, "kafka.env": env}, nil
}

// rawFiles is the JMX exporter's rules file, which the exporter sidecar
// reads from the role group's ConfigMap.
func rawFiles(context.Context, *v1alpha1.KafkaCluster, *reconciler.BuildContext) (map[string]string, error) {
	return map[string]string{sidecar.DefaultJMXConfigKey: "lowercaseOutputName: true\nrules:\n  - pattern: \"kafka.server<type=(.+), name=(.+)><>Value\"\n    name: kafka_server_$1_$2\n"}, nil
}

// heapOptions gives the JVM 70% of the folded memory limit.
func heapOptions(bc *reconciler.BuildContext) string {
	c := bc.Config.Config
	if c == nil || c.Resources == nil || c.Resources.Memory == nil || c.Resources.Memory.Limit == nil {
		return "-Xmx512m"
	}
	mib := c.Resources.Memory.Limit.Value() * 7 / 10 / (1 << 20)
	return fmt.Sprintf("-Xmx%dm -Xms%dm", mib, mib)
}

func reconcilerConfigPath(file string) string { return reconciler.DefaultConfigMountPath + "/" + file }

// controllerVoters lists every controller pod's quorum address.
func controllerVoters(cr *v1alpha1.KafkaCluster) []string {
	var out []string
	for _, g := range roleGroups(cr, RoleController) {
		sts := builders.RoleGroupResourceName(cr.Name, RoleController, g.name)
		for i := range g.replicas {
			out = append(out, fmt.Sprintf("%s-%d.%s.%s.svc.cluster.local:%d", sts, i, builders.HeadlessServiceName(sts), cr.Namespace, controllerPort))
		}
	}
	return out
}

// bootstrapServers lists the brokers' client Services.
func bootstrapServers(cr *v1alpha1.KafkaCluster) string {
	var out []string
	for _, g := range roleGroups(cr, RoleBroker) {
		out = append(out, fmt.Sprintf("%s.%s.svc.cluster.local:%d", builders.RoleGroupResourceName(cr.Name, RoleBroker, g.name), cr.Namespace, clientPort))
	}
	return strings.Join(out, ",")
}

// clusterObjects is the discovery ConfigMap clients mount to find the
// brokers.
func clusterObjects(_ context.Context, cr *v1alpha1.KafkaCluster) ([]client.Object, error) {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: cr.Namespace, Name: cr.Name + "-bootstrap"},
		Data:       map[string]string{"BOOTSTRAP_SERVERS": bootstrapServers(cr), "SECURITY_PROTOCOL": "SASL_PLAINTEXT"},
	}
	return []client.Object{cm}, nil
}

// groupSlot is a stable slot for a group's block of node ids, derived from
// its name: adding or removing another group never renumbers a running
// one. Two groups of one role may share a slot (1 in 9 for two groups);
// a real operator would record the slot it gave each group.
func groupSlot(group string) int {
	h := fnv.New32a()
	h.Write([]byte(group))
	return int(h.Sum32() % 9)
}

func valueOr(c *v1alpha1.KafkaClusterConfig, get func(*v1alpha1.KafkaClusterConfig) *int32, def int32) int32 {
	if c == nil || get(c) == nil {
		return def
	}
	return *get(c)
}
