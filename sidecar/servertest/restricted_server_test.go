package servertest

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/testkit"
)

// TestInjectedExporterAcceptedUnderRestrictedPodSecurity injects the JMX
// exporter container through the StatefulSet builder, lets a pod override
// raise its memory, and dry-runs the StatefulSet and a pod made from its
// template in a namespace enforcing the restricted profile.
func TestInjectedExporterAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "kafka", Role: "broker", RoleGroup: "default", ProductName: "kafka"}

	jmx, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: sidecar.JMXContainer})
	require.NoError(t, err)
	reg, err := sidecar.NewRegistry(jmx)
	require.NoError(t, err)
	plan, err := reg.Plan(sidecar.PlanOptions{ProductImage: sidecar.ProductImage{Reference: "registry.example/kafka:3.9.0"}})
	require.NoError(t, err)

	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "kafka", Image: "registry.example/kafka:3.9.0"}).
		WithInjectors(plan).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRole,
			Patch: []byte(`{"spec":{"containers":[{"name":"jmx-exporter","resources":{"limits":{"memory":"256Mi"},"requests":{"memory":"256Mi"}}}]}}`)}).
		Build()
	require.NoError(t, err)
	exporter := sts.Spec.Template.Spec.Containers[1]
	require.Equal(t, sidecar.JMXExporterName, exporter.Name)
	require.Equal(t, "256Mi", exporter.Resources.Limits.Memory().String(), "the user's override of the sidecar")

	pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
	pod.Name, pod.Namespace = sts.Name+"-0", ns
	require.NoError(t, cp.Client.Create(t.Context(), pod, client.DryRunAll), "pod refused")
	require.NoError(t, cp.Client.Create(t.Context(), sts, client.DryRunAll), "StatefulSet refused")
}
