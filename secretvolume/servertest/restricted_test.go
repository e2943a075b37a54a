package servertest_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/secretvolume"
	"github.com/opkit-dev/opkit/testkit"
)

func secrets() *secretvolume.Set {
	return secretvolume.New(secretvolume.Options{}).Add(
		secretvolume.TLS("tls", "tls", &secretclassv1alpha1.Scope{Pod: true, Node: true, Services: []string{"prod-server"}}).
			WithPKCS12Password("changeit"),
		secretvolume.Kerberos("kerberos", "kerberos", "HTTP", "zookeeper").MountedIn("prepare", "main"),
		secretvolume.Credentials("s3-credentials", secretclassv1alpha1.Volume{SecretClass: "s3-credentials"}),
	)
}

// TestVolumesAcceptedUnderRestrictedPodSecurity dry-run creates a
// StatefulSet built with every kind of secret volume, and a pod made from
// its template, in a restricted namespace: the API server validates the
// ephemeral volumes' claim templates and Pod Security admits them.
func TestVolumesAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default"}
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
		WithInitContainers(corev1.Container{Name: "prepare", Image: "registry.example/prepare:1"}).
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithConfigVolume("/opkit/config").
		WithInjectors(secrets()).
		Build()
	require.NoError(t, err)
	require.Len(t, sts.Spec.Template.Spec.Volumes, 4, "the config volume and three secret volumes")

	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, obj := range []client.Object{sts, pod} {
		if err := cp.Client.Create(t.Context(), obj, client.DryRunAll); err != nil {
			t.Errorf("dry-run create %T: %v", obj, err)
		}
	}
}

// TestVolumeShapeIsValidated proves the dry run above checks the volumes:
// a claim template without a storage request, which the builder never
// produces, is refused by the API server.
func TestVolumeShapeIsValidated(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	vols, err := secrets().Volumes()
	require.NoError(t, err)
	broken := vols[0].DeepCopy()
	broken.Ephemeral.VolumeClaimTemplate.Spec.Resources = corev1.VolumeResourceRequirements{}
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "main", Image: "registry.example/main:1"}},
		Volumes:    []corev1.Volume{*broken},
	}}
	pod.Name, pod.Namespace = "broken", ns
	err = cp.Client.Create(t.Context(), pod, client.DryRunAll)
	require.Error(t, err, "a claim template without a storage request must be refused")
	require.Contains(t, err.Error(), "volumeClaimTemplate.spec.resources[storage]: Required value")
}

// TestPodOverrideCannotDisplaceASecretMount: the secret mounts are framework
// mounts, so an override mounting another volume at their path fails the
// build naming the user's field, instead of silently taking the
// certificates away.
func TestPodOverrideCannotDisplaceASecretMount(t *testing.T) {
	scope := builders.Scope{Namespace: "ns", Cluster: "prod", Role: "server", RoleGroup: "default"}
	_, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
		WithInitContainers(corev1.Container{Name: "prepare"}).
		WithInjectors(secrets()).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(`{"spec":{
			"volumes":[{"name":"mine","emptyDir":{}}],
			"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/secret/tls"}]}]}}`)}).
		Build()
	require.Error(t, err)
	require.True(t, errors.Is(err, failure.ErrInvalid))
	require.Contains(t, err.Error(), "spec.roles.server.roleGroups.default.podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/secret/tls]")
}
