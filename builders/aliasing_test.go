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
		VolumeMounts:   []corev1.VolumeMount{{Name: "config", MountPath: "/c"}},
		ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}}
	sidecar := corev1.Container{Name: "agent", Args: []string{"-v"}}
	volume := corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}}
	config := testConfig()
	affinity := &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}
	env := corev1.EnvVar{Name: "B", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}
	overrides := map[string]string{"C": "3"}
	layer := []byte(`{"metadata":{"labels":{"x":"y"}}}`)

	b := NewStatefulSet(scope, main).WithContainers(sidecar).WithVolumes(volume).WithConfig(config, affinity).
		WithDataVolume(DataVolume{MountPath: "/data"}).WithEnv(env).WithEnvOverrides(overrides).WithReplicas(2).
		WithPodOverrides(layer)
	sts, err := b.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, sts, scope, main, sidecar, volume, config, affinity, env, overrides, layer, b)
	again, err := b.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, again, sts)

	port := corev1.ServicePort{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}
	svcB := NewService(scope).WithPorts(port)
	requireNoSharedPointers(t, svcB.Build(), scope, port, svcB)
	metricsB := NewMetricsService(scope, port, "/metrics")
	requireNoSharedPointers(t, metricsB.Build(), scope, port, metricsB)

	data := map[string]string{"a": "b"}
	cmB := NewConfigMap(scope).WithData(data)
	cm, err := cmB.Build()
	require.NoError(t, err)
	requireNoSharedPointers(t, cm, scope, data, cmB)

	spec := &commonsv1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: ptr.To[int32](2)}
	pdb, err := PodDisruptionBudget(scope, spec)
	require.NoError(t, err)
	requireNoSharedPointers(t, pdb, scope, spec)

	rules := []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}}}
	requireNoSharedPointers(t, Role(scope, "sa", rules), scope, rules)
	requireNoSharedPointers(t, RoleBinding(scope, "sa"), scope)
	requireNoSharedPointers(t, ServiceAccount(scope, "sa"), scope)
}
