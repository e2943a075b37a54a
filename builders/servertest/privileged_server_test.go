package servertest

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
)

// A podOverride asking for privileges (privileged, or CAP_SYS_ADMIN added)
// builds a StatefulSet, and a pod of its template, that the API server
// accepts: the restricted defaults leave out what it refuses beside them.
func TestPrivilegedOverridesAreAccepted(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	group := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper"}
	sts, err := builders.NewStatefulSet(group, corev1.Container{Name: "main"}).
		WithImage("registry.example/zookeeper:3.9.2", corev1.PullIfNotPresent).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(`{"spec":{
			"initContainers":[{"name":"tune","image":"registry.example/busybox:1","securityContext":{"capabilities":{"add":["CAP_SYS_ADMIN"]}}}],
			"containers":[{"name":"main","securityContext":{"privileged":true}}]}}`)}).
		Build()
	require.NoError(t, err)
	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	for _, obj := range []client.Object{sts, pod} {
		if err := cp.Client.Create(t.Context(), obj, client.DryRunAll); err != nil {
			t.Errorf("dry-run create %T %q: %v", obj, obj.GetName(), err)
		}
	}
}
