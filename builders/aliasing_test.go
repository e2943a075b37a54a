package builders

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// TestBuildersShareNoMemory proves that no pointer, map or slice of a
// builder's input, or of the builder itself, is reachable from a result: a
// caller may mutate either side without touching the other.
func TestBuildersShareNoMemory(t *testing.T) {
	scope := testScope()
	scope.ClusterLabels = map[string]string{"team": "a"}
	scope.IdentityLabels = map[string]string{"zk.example/id": "x"}
	main := corev1.Container{Name: "main", Env: []corev1.EnvVar{{Name: "A", Value: "1"}},
		VolumeMounts:   []corev1.VolumeMount{{Name: "extra", MountPath: "/c"}},
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}}
	sidecar := corev1.Container{Name: "agent", Args: []string{"-v"}}
	volume := corev1.Volume{Name: "extra", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}}
	config := testConfig()
	affinity := &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}
	env := corev1.EnvVar{Name: "B", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}
	overrides := map[string]string{"C": "3"}
	layer := PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(`{"metadata":{"labels":{"x":"y"}}}`)}
	cli := []string{"--verbose"}

	b := NewStatefulSet(scope, main).WithContainers(sidecar).WithVolumes(volume).WithConfig(config, affinity).
		WithDataVolume(DataVolume{MountPath: "/data"}).WithEnv(env).WithEnvOverrides(overrides).WithReplicas(2).
		WithCliOverrides(cli...).WithConfigVolume("/config").WithPodOverrides(layer)
	sts, err := b.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, sts, scope, main, sidecar, volume, config, affinity, env, overrides, layer, cli, b)
	again, err := b.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, again, sts)

	port := corev1.ServicePort{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}
	svcB := NewService(scope).WithPorts(port)
	svc, err := svcB.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, svc, scope, port, svcB)
	metricsB := NewMetricsService(scope, port, "/metrics")
	metrics, err := metricsB.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, metrics, scope, port, metricsB)

	data := map[string]string{"a": "b"}
	file := ConfigFile{Name: "x.properties", Entries: map[string]string{"k": "v"},
		Overrides: []ConfigOverride{{Layer: commonsv1alpha1.LayerRole, Entries: map[string]string{"k": "w"}}}}
	cmB := NewConfigMap(scope).WithData(data).WithConfigFile(file)
	cm, err := cmB.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, cm, scope, data, file, cmB)

	spec := &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](2)}
	pdbB := NewPodDisruptionBudget(scope, spec)
	pdb, err := pdbB.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, pdb, scope, spec, pdbB)

	rules := []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}}}
	requireNoSharedPointers(t, Role(scope, "sa", rules), scope, rules)
	requireNoSharedPointers(t, RoleBinding(scope, "sa"), scope)
	requireNoSharedPointers(t, ServiceAccount(scope, "sa"), scope)
}
