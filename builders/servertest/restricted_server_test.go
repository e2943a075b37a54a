package servertest

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
)

// logAgent is an injector standing in for a sidecar: a container the
// product did not declare, mounting a volume it adds.
type logAgent struct{}

func (logAgent) Inject(spec *corev1.PodSpec, target builders.PodTarget) error {
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "log", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	for i := range spec.Containers {
		if spec.Containers[i].Name == target.MainContainer {
			spec.Containers[i].VolumeMounts = append(spec.Containers[i].VolumeMounts, corev1.VolumeMount{Name: "log", MountPath: "/opkit/log"})
		}
	}
	spec.Containers = append(spec.Containers, corev1.Container{Name: "agent", Image: "registry.example/agent:1",
		VolumeMounts: []corev1.VolumeMount{{Name: "log", MountPath: "/opkit/log", ReadOnly: true}}})
	return nil
}

// TestBuiltObjectsAcceptedUnderRestrictedPodSecurity dry-run creates every
// object the module builds, and a pod made from the StatefulSet's template
// as the StatefulSet controller would, in a restricted namespace. The
// template holds a sidecar from an injector and an init container and a
// container a pod override adds, none of which state a security context:
// the restricted defaults must reach them all.
func TestBuiltObjectsAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	dryRun := client.DryRunAll

	group := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default",
		ProductName: "zookeeper", ProductVersion: "3.9.2", ClusterLabels: map[string]string{"team": "data"}}
	saName := builders.ServiceAccountName("ZookeeperCluster", "prod")

	config := &commonsv1alpha1.RoleGroupConfigSpec{
		Resources: &commonsv1alpha1.ResourcesSpec{
			CPU:     &commonsv1alpha1.CPUResource{Min: ptr.To(resource.MustParse("100m")), Max: ptr.To(resource.MustParse("1"))},
			Memory:  &commonsv1alpha1.MemoryResource{Limit: ptr.To(resource.MustParse("512Mi"))},
			Storage: &commonsv1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse("1Gi"))},
		},
		GracefulShutdownTimeout: ptr.To("45s"),
	}
	port := corev1.ServicePort{Name: "client", Port: 2181, TargetPort: intstr.FromString("client")}
	sts, err := builders.NewStatefulSet(group, corev1.Container{
		Name: "main", Ports: []corev1.ContainerPort{{Name: "client", ContainerPort: 2181}},
	}).
		WithContainers(corev1.Container{Name: "helper", Image: "registry.example/helper:1"}).
		WithInitContainers(corev1.Container{Name: "prepare", Image: "registry.example/prepare:1"}).
		WithConfigVolume("/opkit/config").
		WithConfig(config, nil).
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithEnvOverrides(map[string]string{"JVMFLAGS": "-Xmx256m"}).
		WithCliOverrides("--verbose").
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithImagePullSecret("registry").
		WithServiceAccountName(saName).
		WithReplicas(3).
		WithInjectors(logAgent{}).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(`{"spec":{
			"initContainers":[{"name":"wait-for-dns","image":"registry.example/busybox:1","command":["true"]}],
			"containers":[
				{"name":"main","env":[{"name":"EXTRA","value":"1"}]},
				{"name":"debug","image":"registry.example/busybox:1","command":["sleep","infinity"]},
				{"name":"agent","resources":{"limits":{"memory":"64Mi"}}}]}}`)}).
		Build()
	require.NoError(t, err)
	cm, err := builders.NewConfigMap(group).WithConfigFile(builders.ConfigFile{
		Name: "zoo.properties", Entries: map[string]string{"tickTime": "2000"}}).Build()
	require.NoError(t, err)
	rolePDB, err := builders.NewPodDisruptionBudget(group.RoleScope(), nil).Build()
	require.NoError(t, err)
	groupPDB, err := builders.NewPodDisruptionBudget(group, &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](2)}).Build()
	require.NoError(t, err)
	client1, err := builders.NewService(group).WithPorts(port).Build()
	require.NoError(t, err)
	headless, err := builders.NewHeadlessService(group).WithPorts(port).WithPublishNotReadyAddresses(true).Build()
	require.NoError(t, err)
	metrics, err := builders.NewMetricsService(group, corev1.ServicePort{Name: "metrics", Port: 9404}, "/metrics").Build()
	require.NoError(t, err)
	rules := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}
	cluster := group.ClusterScope()

	pod := &corev1.Pod{
		ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(),
		Spec:       *sts.Spec.Template.Spec.DeepCopy(),
	}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, claim := range sts.Spec.VolumeClaimTemplates {
		pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: claim.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name + "-" + pod.Name}}})
	}
	var names []string
	for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
		names = append(names, c.Name)
	}
	require.ElementsMatch(t, []string{"prepare", "wait-for-dns", "main", "helper", "agent", "debug"}, names,
		"the override's containers and the sidecar must be in the pod for the dry run to prove anything")

	objs := []client.Object{
		builders.ServiceAccount(cluster, saName),
		builders.Role(cluster, saName, rules),
		builders.RoleBinding(cluster, saName),
		cm, client1, headless, metrics, sts, rolePDB, groupPDB, pod,
	}
	for _, obj := range objs {
		if err := cp.Client.Create(t.Context(), obj, dryRun); err != nil {
			t.Errorf("dry-run create %T %q: %v", obj, obj.GetName(), err)
		}
	}
}
