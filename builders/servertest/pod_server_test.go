package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
)

// TestPodFromTheTemplateCarriesArgsEnvOrderAndSidecarOverrides creates a
// StatefulSet and reads the pod the StatefulSet controller makes from it:
// the cliOverrides are the main container's trailing args, the env stands
// in an order where each $(VAR) reference follows its variable (the kubelet
// expands a reference only to an earlier variable), and the user's pod
// override of an injected sidecar's resources is in the running pod.
func TestPodFromTheTemplateCarriesArgsEnvOrderAndSidecarOverrides(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper"}

	sts, err := builders.NewStatefulSet(scope, corev1.Container{
		Name: "main", Image: "registry.example/zookeeper:3.9.2", Args: []string{"start-foreground"},
		Env: []corev1.EnvVar{{Name: "ZK_HOME", Value: "/opt/zk"}},
	}).
		WithEnv(corev1.EnvVar{Name: "CONF_DIR", Value: "$(ZK_HOME)/conf"}).
		WithEnvOverrides(map[string]string{"A_CLASSPATH": "$(Z_LIB)/*", "Z_LIB": "$(ZK_HOME)/lib", "ZK_HOME": "/srv/zk"}).
		WithCliOverrides("-Dzookeeper.admin.enableServer=false").
		WithInjectors(logAgent{}).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRole,
			Patch: []byte(`{"spec":{"containers":[{"name":"agent","resources":{"limits":{"memory":"96Mi"}}}]}}`)}).
		WithReplicas(1).
		Build()
	require.NoError(t, err)
	require.NoError(t, cp.Client.Create(ctx, sts))

	pod, err := testkit.WaitFor(ctx, func(ctx context.Context) (*corev1.Pod, bool, error) {
		p := &corev1.Pod{}
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: sts.Name + "-0"}, p)
		return p, err == nil, client.IgnoreNotFound(err)
	}, time.Minute)
	require.NoError(t, err)

	main, agent := pod.Spec.Containers[0], pod.Spec.Containers[1]
	if diff := cmp.Diff([]string{"start-foreground", "-Dzookeeper.admin.enableServer=false"}, main.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	var order []string
	for _, e := range main.Env {
		order = append(order, e.Name+"="+e.Value)
	}
	want := []string{"ZK_HOME=/srv/zk", "CONF_DIR=$(ZK_HOME)/conf", "Z_LIB=$(ZK_HOME)/lib", "A_CLASSPATH=$(Z_LIB)/*"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("env order in the pod (-want +got):\n%s", diff)
	}
	require.Equal(t, "agent", agent.Name)
	want96 := resource.MustParse("96Mi")
	require.Zero(t, want96.Cmp(*agent.Resources.Limits.Memory()), "sidecar memory limit %s", agent.Resources.Limits.Memory())
}
