package builders

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func testScope() Scope {
	return Scope{Namespace: "ns", Cluster: "prod", Role: "server", RoleGroup: "default"}
}

func testConfig() *commonsv1alpha1.RoleGroupConfigSpec {
	return &commonsv1alpha1.RoleGroupConfigSpec{
		Resources: &commonsv1alpha1.ResourcesSpec{
			CPU:     &commonsv1alpha1.CPUResource{Min: ptr.To(resource.MustParse("250m")), Max: ptr.To(resource.MustParse("1"))},
			Memory:  &commonsv1alpha1.MemoryResource{Limit: ptr.To(resource.MustParse("1Gi"))},
			Storage: &commonsv1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse("10Gi")), StorageClass: ptr.To("fast")},
		},
		GracefulShutdownTimeout: ptr.To("1m30s"),
	}
}

func TestStatefulSetBuild(t *testing.T) {
	scope := testScope()
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}},
		}}},
	}}
	sidecar := corev1.Container{Name: "agent", Image: "agent:1"}
	got, err := NewStatefulSet(scope, corev1.Container{
		Name: "main", Env: []corev1.EnvVar{{Name: "Z", Value: "container"}},
		VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opkit/config"}},
	}).
		WithReplicas(3).
		WithInitContainers(corev1.Container{Name: "prepare", Image: "prepare:1"}).
		WithContainers(sidecar).
		WithVolumes(corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "prod-server-default"}}}}).
		WithConfig(testConfig(), affinity).
		WithDataVolume(DataVolume{MountPath: "/data"}).
		WithEnv(corev1.EnvVar{Name: "B", Value: "declared"}, corev1.EnvVar{Name: "A", ValueFrom: &corev1.EnvVarSource{
			FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}).
		WithEnvOverrides(map[string]string{"A": "user", "C": "user"}).
		WithImage("registry.example/zk:3.9.2", corev1.PullIfNotPresent).
		WithImagePullSecret("registry").
		WithServiceAccountName("zookeepercluster-prod").
		Build()
	require.NoError(t, err)

	restricted := RestrictedContainerSecurityContext()
	selector := scope.SelectorLabels()
	want := &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{Name: "prod-server-default", Namespace: "ns", Labels: scope.Labels()},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            ptr.To[int32](3),
			Selector:            &metav1.LabelSelector{MatchLabels: selector},
			ServiceName:         "prod-server-default-headless",
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: scope.Labels()},
				Spec: corev1.PodSpec{
					InitContainers: []corev1.Container{{Name: "prepare", Image: "prepare:1", SecurityContext: restricted}},
					Containers: []corev1.Container{
						{
							Name: "main", Image: "registry.example/zk:3.9.2", ImagePullPolicy: corev1.PullIfNotPresent,
							Env: []corev1.EnvVar{
								{Name: "Z", Value: "container"}, {Name: "B", Value: "declared"},
								{Name: "A", Value: "user"}, {Name: "C", Value: "user"},
							},
							Resources: corev1.ResourceRequirements{
								Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("1Gi")},
								Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")},
							},
							VolumeMounts: []corev1.VolumeMount{
								{Name: "config", MountPath: "/opkit/config"}, {Name: "data", MountPath: "/data"},
							},
							SecurityContext: restricted,
						},
						{Name: "agent", Image: "agent:1", SecurityContext: restricted},
					},
					Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
						LocalObjectReference: corev1.LocalObjectReference{Name: "prod-server-default"}}}}},
					ServiceAccountName:            "zookeepercluster-prod",
					ImagePullSecrets:              []corev1.LocalObjectReference{{Name: "registry"}},
					TerminationGracePeriodSeconds: ptr.To[int64](90),
					Affinity:                      affinity,
					SecurityContext:               RestrictedPodSecurityContext(),
				},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
				ObjectMeta: metav1.ObjectMeta{Name: "data", Labels: selector},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}},
					StorageClassName: ptr.To("fast"),
				},
			}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StatefulSet (-want +got):\n%s", diff)
	}
}

func TestStatefulSetMainContainerFoundByName(t *testing.T) {
	cfg := &commonsv1alpha1.RoleGroupConfigSpec{Resources: &commonsv1alpha1.ResourcesSpec{
		Memory: &commonsv1alpha1.MemoryResource{Limit: ptr.To(resource.MustParse("2Gi"))}}}
	b := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).
		WithConfig(cfg, nil).WithImage("img:1", "").WithEnvOverrides(map[string]string{"X": "1"})
	// A sidecar placed at index 0 by a test's hand: the builder must still
	// pick "main".
	b.containers = append([]corev1.Container{{Name: "first"}}, b.containers...)
	sts, err := b.Build()
	require.NoError(t, err)
	cs := sts.Spec.Template.Spec.Containers
	require.Len(t, cs, 2)
	if diff := cmp.Diff(corev1.Container{Name: "first", SecurityContext: RestrictedContainerSecurityContext()}, cs[0]); diff != "" {
		t.Errorf("sidecar changed (-want +got):\n%s", diff)
	}
	if cs[1].Image != "img:1" || len(cs[1].Env) != 1 || cs[1].Resources.Limits.Memory().String() != "2Gi" {
		t.Errorf("main container not configured: %+v", cs[1])
	}
	if sts.Spec.Template.Spec.Affinity != nil {
		t.Errorf("affinity set without one in the config: %+v", sts.Spec.Template.Spec.Affinity)
	}
}

func TestStatefulSetNoClaimWithoutDataVolume(t *testing.T) {
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithConfig(testConfig(), nil).Build()
	require.NoError(t, err)
	if len(sts.Spec.VolumeClaimTemplates) != 0 || len(sts.Spec.Template.Spec.Containers[0].VolumeMounts) != 0 {
		t.Errorf("data volume without a declaration: %+v", sts.Spec.VolumeClaimTemplates)
	}
}

func TestStatefulSetValidationErrors(t *testing.T) {
	const timeout = "spec.roles.server.roleGroups.default.config.gracefulShutdownTimeout"
	tests := []struct {
		name, timeout string
		data          *DataVolume
		noStorage     bool
		field         string
	}{
		{name: "unparsable timeout", timeout: "soon", field: timeout},
		{name: "zero timeout", timeout: "0s", field: timeout},
		{name: "negative timeout", timeout: "-5s", field: timeout},
		{name: "data volume without capacity", timeout: "5s", data: &DataVolume{MountPath: "/d"}, noStorage: true,
			field: "spec.roles.server.roleGroups.default.config.resources.storage.capacity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.GracefulShutdownTimeout = &tt.timeout
			if tt.noStorage {
				cfg.Resources.Storage = nil
			}
			b := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithConfig(cfg, nil)
			if tt.data != nil {
				b.WithDataVolume(*tt.data)
			}
			_, err := b.Build()
			var verr *ValidationError
			require.True(t, errors.As(err, &verr), "want a ValidationError, got %v", err)
			if diff := cmp.Diff(tt.field, failure.FieldOf(err)); diff != "" {
				t.Errorf("field (-want +got):\n%s", diff)
			}
			require.Equal(t, failure.AuthorUser, failure.AuthorOf(err))
			require.ErrorIs(t, err, failure.ErrInvalid)
		})
	}
}

func TestStatefulSetGraceRoundsUp(t *testing.T) {
	cfg := &commonsv1alpha1.RoleGroupConfigSpec{GracefulShutdownTimeout: ptr.To("1500ms")}
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithConfig(cfg, nil).Build()
	require.NoError(t, err)
	if diff := cmp.Diff(ptr.To[int64](2), sts.Spec.Template.Spec.TerminationGracePeriodSeconds); diff != "" {
		t.Errorf("grace (-want +got):\n%s", diff)
	}
}

func TestStatefulSetKeepsProductSecurityContext(t *testing.T) {
	main := corev1.Container{Name: "main", SecurityContext: &corev1.SecurityContext{RunAsUser: ptr.To[int64](4242)}}
	sts, err := NewStatefulSet(testScope(), main).Build()
	require.NoError(t, err)
	sc := sts.Spec.Template.Spec.Containers[0].SecurityContext
	want := RestrictedContainerSecurityContext()
	want.RunAsUser = ptr.To[int64](4242)
	if diff := cmp.Diff(want, sc); diff != "" {
		t.Errorf("security context (-want +got):\n%s", diff)
	}
}
