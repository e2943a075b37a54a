package vector_test

import (
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

var target = builders.PodTarget{Scope: scope, MainContainer: "namenode"}

// plan returns a build's plan with the agent and the product image.
func plan(t *testing.T, agent sidecar.Provider, image sidecar.ProductImage) *sidecar.Plan {
	t.Helper()
	reg, err := sidecar.NewRegistry()
	require.NoError(t, err)
	p, err := reg.Plan(sidecar.PlanOptions{ProductImage: image, Extra: []sidecar.Provider{agent}})
	require.NoError(t, err)
	return p
}

func TestProviderInjectsAgentLogVolumeAndMounts(t *testing.T) {
	p, err := vector.NewProvider(vector.ProviderOptions{
		Producers: []productlogging.Producer{
			{Container: "zkfc", Framework: productlogging.Log4j, LogDir: "/var/log/hdfs"},
			{Container: "namenode", Framework: productlogging.Log4j2, LogDir: "/var/log/hdfs"},
			{Container: "probe", Framework: productlogging.Python},
		},
		LogVolumeSize: resource.MustParse("50Mi"),
	})
	require.NoError(t, err)
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "namenode"}, {Name: "zkfc"}, {Name: "probe"}}}
	require.NoError(t, plan(t, p, sidecar.ProductImage{Reference: "hdfs:3.4", PullPolicy: corev1.PullAlways}).Inject(spec, target))

	logs := func(dir, sub string, ro bool) corev1.VolumeMount {
		return corev1.VolumeMount{Name: "log", MountPath: dir, SubPath: sub, ReadOnly: ro}
	}
	limits := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}
	agentSecurity := builders.RestrictedContainerSecurityContext()
	agentSecurity.ReadOnlyRootFilesystem = ptr.To(true)
	want := corev1.PodSpec{
		Containers: []corev1.Container{
			{Name: "namenode", VolumeMounts: []corev1.VolumeMount{logs("/var/log/hdfs", "files/var/log/hdfs", false)}},
			{Name: "zkfc", VolumeMounts: []corev1.VolumeMount{logs("/var/log/hdfs", "files/var/log/hdfs", false)}},
			{Name: "probe", VolumeMounts: []corev1.VolumeMount{logs("/opkit/log/probe", "files/opkit/log/probe", false)}},
			{
				Name:            "vector",
				Image:           "hdfs:3.4",
				ImagePullPolicy: corev1.PullAlways,
				Command:         []string{"vector", "--config", "/opkit/vector/config/vector.yaml"},
				Env: []corev1.EnvVar{{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{
					FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
				Resources: corev1.ResourceRequirements{Requests: limits, Limits: limits},
				VolumeMounts: []corev1.VolumeMount{
					{Name: "vector-config", MountPath: "/opkit/vector/config", ReadOnly: true},
					{Name: "log", MountPath: "/opkit/vector/data", SubPath: "agent"},
					logs("/opkit/log/probe", "files/opkit/log/probe", true),
					logs("/var/log/hdfs", "files/var/log/hdfs", true),
				},
				SecurityContext: agentSecurity,
			},
		},
		Volumes: []corev1.Volume{
			{Name: "log", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: ptr.To(resource.MustParse("50Mi"))}}},
			{Name: "vector-config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "hdfs-namenode-default"},
				Items:                []corev1.KeyToPath{{Key: "vector.yaml", Path: "vector.yaml"}},
			}}},
		},
	}
	if diff := cmp.Diff(want, *spec); diff != "" {
		t.Errorf("pod spec (-want +got):\n%s", diff)
	}
}

func TestDefaultLogVolumeSizeCoversEveryProducersFiles(t *testing.T) {
	producers := []productlogging.Producer{{Container: "a", Framework: productlogging.Log4j}, {Container: "b", Framework: productlogging.Python}}
	p, err := vector.NewProvider(vector.ProviderOptions{Producers: producers, Image: "vector:1"})
	require.NoError(t, err)
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}}
	require.NoError(t, p.Inject(spec, target))
	// Two producers × (active + rolled file) × 10Mi + 16Mi for the agent.
	want := resource.MustParse("56Mi")
	got := spec.Volumes[0].EmptyDir.SizeLimit
	require.NotNil(t, got)
	require.Zero(t, want.Cmp(*got), "log volume %s, want %s", got, &want)
}

func TestProviderRefusals(t *testing.T) {
	producers := []productlogging.Producer{{Container: "namenode", Framework: productlogging.Log4j2}}
	tests := []struct {
		name string
		opts vector.ProviderOptions
		spec corev1.PodSpec
		want string
	}{
		{name: "producer container absent", opts: vector.ProviderOptions{Producers: producers, Image: "v:1"},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "other"}}},
			want: `inject sidecar "vector": log producer container "namenode" is not in the pod`},
		{name: "no image at all", opts: vector.ProviderOptions{Producers: producers},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "namenode"}}},
			want: `inject sidecar "vector": no image for the vector container: set ProviderOptions.Image or the product image`},
		{name: "the pod already has a log volume", opts: vector.ProviderOptions{Producers: producers, Image: "v:1"},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "namenode"}}, Volumes: []corev1.Volume{{Name: "log"}}},
			want: `inject sidecar "vector": volume "log" already exists in the pod`},
		{name: "the product mounts its own volume at the log directory", opts: vector.ProviderOptions{Producers: producers, Image: "v:1"},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "namenode",
				VolumeMounts: []corev1.VolumeMount{{Name: "own", MountPath: "/opkit/log/namenode"}}}}},
			want: `inject sidecar "vector": volumeMount "/opkit/log/namenode" of container "namenode" already exists`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := vector.NewProvider(tt.opts)
			require.NoError(t, err)
			err = plan(t, p, sidecar.ProductImage{}).Inject(&tt.spec, target)
			require.Error(t, err)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewProviderRefusesBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts vector.ProviderOptions
		want string
	}{
		{name: "no producers", want: "logProducers: vector provider: no log producers; Decide skips the agent for such a role"},
		{name: "one container twice", opts: vector.ProviderOptions{Producers: []productlogging.Producer{
			{Container: "a", Framework: productlogging.Log4j}, {Container: "a", Framework: productlogging.Python}}},
			want: `vector provider: logProducers[1].container: container "a" is already configured by logProducers[0]`},
		{name: "negative size", opts: vector.ProviderOptions{Producers: []productlogging.Producer{{Container: "a", Framework: productlogging.Log4j}},
			LogVolumeSize: resource.MustParse("-1Mi")}, want: "logVolumeSize: vector provider: -1Mi is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vector.NewProvider(tt.opts)
			require.Error(t, err)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
		})
	}
}

// TestAgentSeesEveryFileAtThePathItsConfigReads checks the provider and the
// renderer against each other: each file a source includes lies in a
// directory that its producer and the agent both mount from the same place
// on the log volume.
func TestAgentSeesEveryFileAtThePathItsConfigReads(t *testing.T) {
	producers := allFrameworks()
	p, err := vector.NewProvider(vector.ProviderOptions{Producers: producers, Image: "vector:1"})
	require.NoError(t, err)
	spec := &corev1.PodSpec{}
	for _, prod := range producers {
		spec.Containers = append(spec.Containers, corev1.Container{Name: prod.Container})
	}
	require.NoError(t, p.Inject(spec, target))
	cfg := render(t, producers)

	mountOf := func(container, file string) (corev1.VolumeMount, bool) {
		c := sidecar.Container(spec, container)
		require.NotNil(t, c, container)
		for _, m := range c.VolumeMounts {
			if m.Name == vector.LogVolumeName && path.Dir(file) == m.MountPath {
				return m, true
			}
		}
		return corev1.VolumeMount{}, false
	}
	for _, prod := range producers {
		include := cfg.Sources[vector.SourceName(prod)].Include
		require.Len(t, include, 1)
		writer, ok := mountOf(prod.Container, include[0])
		require.True(t, ok, "container %s does not mount the directory of %s", prod.Container, include[0])
		reader, ok := mountOf(vector.ProviderName, include[0])
		require.True(t, ok, "the agent does not mount the directory of %s", include[0])
		if diff := cmp.Diff(writer.SubPath, reader.SubPath); diff != "" {
			t.Errorf("%s: writer and agent see different directories (-writer +agent):\n%s", include[0], diff)
		}
	}
}

func TestProviderRequiresTheConfigMapHoldingVectorYAML(t *testing.T) {
	producers := []productlogging.Producer{{Container: "namenode", Framework: productlogging.Log4j2}}
	tests := []struct {
		name      string
		configMap string
		want      string
	}{
		{name: "the role group's own", want: "hdfs-namenode-default"},
		{name: "one the operator names", configMap: "shared-vector", want: "shared-vector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := vector.NewProvider(vector.ProviderOptions{Producers: producers, ConfigMapName: tt.configMap})
			require.NoError(t, err)
			want := []sidecar.Requirement{{Kind: sidecar.KindConfigMap, Namespace: "data", Name: tt.want,
				Keys: []string{vector.ConfigFileName}, NamedBy: failure.AuthorOperator, Provider: vector.ProviderName}}
			if diff := cmp.Diff(want, plan(t, p, sidecar.ProductImage{}).Requirements(target)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
