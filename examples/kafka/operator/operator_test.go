package operator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/examples/internal/manifest"
	kafkaapi "github.com/opkit-dev/opkit/examples/kafka/api"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/kafka/operator"
	"github.com/opkit-dev/opkit/examples/kafka/samples"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// env is the test control plane. Its API server enforces owner-reference
// permissions, as many clusters do, so that the RBAC test meets them.
var env = &testkit.Env{Options: controlplane.Options{Controllers: true, CRDs: mustCRDs(), Scheme: operator.Scheme(),
	APIServerArgs: map[string][]string{"enable-admission-plugins": {"OwnerReferencesPermissionEnforcement"}}}}

func TestMain(m *testing.M) { env.Main(m) }

func mustCRDs() []*apiextensionsv1.CustomResourceDefinition {
	crds, err := kafkaapi.CRDs()
	if err != nil {
		panic(err)
	}
	return crds
}

// The sample converges: brokers and controllers run ready pods with the
// Vector agent beside them and the JMX exporter in the JVM, their
// ConfigMaps hold both config files, the logging config, vector.yaml and
// the JMX rules, and the bootstrap address is published.
func TestSampleConverges(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	volumes(t, cp, 6)
	startOperator(t, cp, ns)
	for _, f := range []string{"dependencies.yaml", "kafkacluster.yaml"} {
		createSample(t, cp.Client, ns, f)
	}
	key := client.ObjectKey{Namespace: ns, Name: "events"}
	k := waitAvailable(t, cp.Client, key)

	wantBootstrap := "events-broker-default." + ns + ".svc.cluster.local:9092"
	if k.Status.BootstrapServers != wantBootstrap {
		t.Errorf("status.bootstrapServers = %q, want %q", k.Status.BootstrapServers, wantBootstrap)
	}
	disc := &corev1.ConfigMap{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "events-bootstrap"}, disc); err != nil {
		t.Fatal(err)
	}
	if disc.Data["BOOTSTRAP_SERVERS"] != wantBootstrap {
		t.Errorf("bootstrap ConfigMap says %q", disc.Data["BOOTSTRAP_SERVERS"])
	}
	for _, role := range []string{operator.RoleController, operator.RoleBroker} {
		name := builders.RoleGroupResourceName("events", role, "default")
		cm := &corev1.ConfigMap{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, cm); err != nil {
			t.Fatal(err)
		}
		for _, file := range []string{"server.properties", "kafka.env", "log4j2.properties", "vector.yaml", "jmx-exporter.yaml"} {
			if cm.Data[file] == "" {
				t.Errorf("%s: ConfigMap lacks %s (has %v)", role, file, keys(cm.Data))
			}
		}
		if !strings.Contains(cm.Data["server.properties"], "process.roles="+role) {
			t.Errorf("%s: server.properties does not set process.roles:\n%s", role, cm.Data["server.properties"])
		}
		sts := &appsv1.StatefulSet{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, sts); err != nil {
			t.Fatal(err)
		}
		var names []string
		var kafkaOpts string
		for _, c := range sts.Spec.Template.Spec.Containers {
			names = append(names, c.Name)
			for _, e := range c.Env {
				if c.Name == "kafka" && e.Name == "KAFKA_OPTS" {
					kafkaOpts = e.Value
				}
			}
		}
		if !strings.Contains(strings.Join(names, ","), "vector") {
			t.Errorf("%s: no Vector agent beside kafka: %v", role, names)
		}
		if !strings.Contains(kafkaOpts, "-javaagent:") {
			t.Errorf("%s: the JMX exporter is not in KAFKA_OPTS: %q", role, kafkaOpts)
		}
	}
	broker := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("events", "broker", "default")}, broker); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(broker.Spec.Template.Spec.Containers[0].Command[2], "advertised.listeners") {
		t.Errorf("the broker's command does not advertise its listener: %v", broker.Spec.Template.Spec.Containers[0].Command)
	}
}

// The CRD refuses what the product cannot run, at admission.
func TestCRDRefusesBadClusters(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	tests := []struct {
		name   string
		change func(*v1alpha1.KafkaCluster)
		want   string
	}{
		{"min in-sync above the replication factor", func(k *v1alpha1.KafkaCluster) {
			k.Spec.ClusterConfig = &v1alpha1.KafkaClusterConfig{DefaultReplicationFactor: ptr.To[int32](2), MinInSyncReplicas: ptr.To[int32](3)}
		}, "minInSyncReplicas must not exceed defaultReplicationFactor"},
		{"no controllers", func(k *v1alpha1.KafkaCluster) { delete(k.Spec.Roles, "controller") }, "must configure both the controller and the broker role"},
		{"no credentials", func(k *v1alpha1.KafkaCluster) { k.Spec.CredentialsSecret = "" }, "spec.credentialsSecret"},
		{"upper-case role group", func(k *v1alpha1.KafkaCluster) {
			k.Spec.Roles["broker"].RoleGroups["Default"] = commonsv1alpha1.RoleGroupSpec{}
		}, "role group names must be lowercase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := validCluster(ns)
			tt.change(k)
			err := cp.Client.Create(t.Context(), k)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Create = %v, want a refusal mentioning %q", err, tt.want)
			}
		})
	}
	if err := cp.Client.Create(t.Context(), validCluster(ns)); err != nil {
		t.Errorf("a valid cluster was refused: %v", err)
	}
}

func validCluster(ns string) *v1alpha1.KafkaCluster {
	k := &v1alpha1.KafkaCluster{}
	k.Namespace, k.GenerateName = ns, "valid-"
	k.Spec.CredentialsSecret = "users"
	k.Spec.Roles = map[string]commonsv1alpha1.RoleSpec{
		"controller": {RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}}},
		"broker":     {RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}}},
	}
	return k
}

func startOperator(t *testing.T, cp *controlplane.ControlPlane, ns string) {
	t.Helper()
	r, err := operator.New(operator.Options{Namespaces: []string{ns}})
	if err != nil {
		t.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(cp.RESTConfig(), ctrl.Options{
		Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     testkit.Logger(t),
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupWithManager(t.Context(), mgr); err != nil {
		t.Fatal(err)
	}
	testkit.RunManager(t, mgr)
}

// volumes creates n persistent volumes for the data claims (the test
// control plane has no provisioner) and deletes them at the end.
func volumes(t *testing.T, cp *controlplane.ControlPlane, n int) {
	t.Helper()
	for i := range n {
		pv := &corev1.PersistentVolume{}
		pv.GenerateName = "kafka-test-"
		pv.Spec.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}
		pv.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
		pv.Spec.HostPath = &corev1.HostPathVolumeSource{Path: "/var/kafka-test/" + string(rune('a'+i))}
		if err := cp.Client.Create(t.Context(), pv); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), pv) })
	}
}

func createSample(t *testing.T, c client.Client, ns, file string) {
	t.Helper()
	objs, err := manifest.Objects(samples.Files, file)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range objs {
		u.SetNamespace(ns)
		if err := c.Create(t.Context(), u); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
}

func waitAvailable(t *testing.T, c client.Client, key client.ObjectKey) *v1alpha1.KafkaCluster {
	t.Helper()
	k, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*v1alpha1.KafkaCluster, bool, error) {
		k := &v1alpha1.KafkaCluster{}
		if err := c.Get(ctx, key, k); err != nil {
			return nil, false, err
		}
		for _, cond := range k.Status.Conditions {
			if cond.Type == commonsv1alpha1.ConditionAvailable && cond.Status == "True" && cond.ObservedGeneration == k.Generation {
				return k, k.Status.BootstrapServers != "", nil
			}
		}
		return k, false, nil
	}, 3*time.Minute)
	if err != nil {
		t.Fatalf("the sample did not become available: %v", err)
	}
	return k
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
