package vector_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

// buildWithAgent builds the role group's StatefulSet with the agent
// injected through a plan and one role-group pod override.
func buildWithAgent(t *testing.T, override string) (*corev1.PodSpec, error) {
	t.Helper()
	agent, err := vector.NewProvider(vector.ProviderOptions{
		Producers: []productlogging.Producer{{Container: "namenode", Framework: productlogging.Log4j2}}})
	require.NoError(t, err)
	p := plan(t, agent, sidecar.ProductImage{Reference: "hdfs:3.4"})
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "namenode"}).
		WithInjectors(p).
		WithPodOverrides(builders.PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(override)}).
		Build()
	if err != nil {
		return nil, err
	}
	return &sts.Spec.Template.Spec, nil
}

func TestPodOverrideAtTheLogDirectoryIsAMountViolation(t *testing.T) {
	_, err := buildWithAgent(t, `{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
		"containers":[{"name":"namenode","volumeMounts":[{"name":"mine","mountPath":"/opkit/log/namenode"}]}]}}`)
	require.ErrorIs(t, err, failure.ErrInvalid)
	require.Equal(t, failure.AuthorUser, failure.AuthorOf(err))
	want := `spec.roles.namenode.roleGroups.default.podOverrides.spec.containers[name=namenode].volumeMounts[mountPath=/opkit/log/namenode]: ` +
		`mounting volume "mine" at /opkit/log/namenode would displace the framework's volume "log" mounted there; mount it at another path`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUserOverridesTheAgentsResources(t *testing.T) {
	spec, err := buildWithAgent(t, `{"spec":{"containers":[{"name":"vector","resources":{"limits":{"cpu":"500m"}}}]}}`)
	require.NoError(t, err)
	agent := sidecar.Container(spec, vector.ProviderName)
	require.NotNil(t, agent)
	require.Equal(t, "500m", agent.Resources.Limits.Cpu().String(), "the user's limit")
	require.Equal(t, "128Mi", agent.Resources.Limits.Memory().String(), "the provider's other limits stay")
}
