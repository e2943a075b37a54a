package builders_test

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

// TestBuiltObjectsAcceptedUnderRestrictedPodSecurity dry-run creates every
// object the module builds, and a pod made from the StatefulSet's template
// as the StatefulSet controller would, in a restricted namespace.
func TestBuiltObjectsAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	dryRun := client.DryRunAll

	// RestrictedNamespace has proven that the profile is enforced: it refuses
	// a pod without the restricted settings.

	group := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default",
		ProductName: "zookeeper", ProductVersion: "3.9.2", ClusterLabels: map[string]string{"team": "data"}}
	role := group
	role.RoleGroup = ""
	cluster := builders.Scope{Namespace: ns, Cluster: "prod"}
	saName := builders.ServiceAccountName("ZookeeperCluster", "prod")
	name := group.ResourceName()

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
		VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opkit/config"}},
	}).
		WithContainers(corev1.Container{Name: "agent", Image: "registry.example/agent:1"}).
		WithInitContainers(corev1.Container{Name: "prepare", Image: "registry.example/prepare:1"}).
		WithVolumes(corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: name}}}}).
		WithConfig(config, nil).
		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
		WithEnvOverrides(map[string]string{"JVMFLAGS": "-Xmx256m"}).
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithImagePullSecret("registry").
		WithServiceAccountName(saName).
		WithReplicas(3).
		WithPodOverrides([]byte(`{"spec":{"containers":[{"name":"main","env":[{"name":"EXTRA","value":"1"}]}]}}`)).
		Build()
	require.NoError(t, err)
	cm, err := builders.NewConfigMap(group).WithConfigFile("zoo.properties", map[string]string{"tickTime": "2000"}).Build()
	require.NoError(t, err)
	rolePDB, err := builders.PodDisruptionBudget(role, nil)
	require.NoError(t, err)
	groupPDB, err := builders.PodDisruptionBudget(group, &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](2)})
	require.NoError(t, err)
	rules := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}

	pod := &corev1.Pod{
		ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(),
		Spec:       *sts.Spec.Template.Spec.DeepCopy(),
	}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, claim := range sts.Spec.VolumeClaimTemplates {
		pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: claim.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name + "-" + pod.Name}}})
	}

	objs := []client.Object{
		builders.ServiceAccount(cluster, saName),
		builders.Role(cluster, saName, rules),
		builders.RoleBinding(cluster, saName),
		cm,
		builders.NewService(group).WithPorts(port).Build(),
		builders.NewHeadlessService(group).WithPorts(port).WithPublishNotReadyAddresses(true).Build(),
		builders.NewMetricsService(group, corev1.ServicePort{Name: "metrics", Port: 9404}, "/metrics").Build(),
		sts,
		rolePDB,
		groupPDB,
		pod,
	}
	for _, obj := range objs {
		if err := cp.Client.Create(t.Context(), obj, dryRun); err != nil {
			t.Errorf("dry-run create %T %q: %v", obj, obj.GetName(), err)
		}
	}
}
