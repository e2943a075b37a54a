package sidecar_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/sidecar"
)

var jmxTarget = builders.PodTarget{
	Scope:         builders.Scope{Namespace: "ns", Cluster: "kafka", Role: "broker", RoleGroup: "default"},
	MainContainer: "main",
}

func hardened() *corev1.SecurityContext {
	sc := builders.RestrictedContainerSecurityContext()
	sc.ReadOnlyRootFilesystem = ptr.To(true)
	return sc
}

func TestJMXExporterModes(t *testing.T) {
	rulesVolume := corev1.Volume{Name: "jmx-exporter-config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: "kafka-broker-default"},
		Items:                []corev1.KeyToPath{{Key: "jmx-exporter.yaml", Path: "jmx-exporter.yaml"}},
	}}}
	rulesMount := corev1.VolumeMount{Name: "jmx-exporter-config", MountPath: "/opkit/jmx-config", ReadOnly: true}
	metrics := corev1.ContainerPort{Name: "metrics", ContainerPort: 9404, Protocol: corev1.ProtocolTCP}
	small := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("128Mi")}
	remote := "-Dcom.sun.management.jmxremote.port=9999 -Dcom.sun.management.jmxremote.rmi.port=9999" +
		" -Dcom.sun.management.jmxremote.host=127.0.0.1 -Djava.rmi.server.hostname=127.0.0.1" +
		" -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false"

	tests := []struct {
		name string
		opts sidecar.JMXOptions
		want corev1.PodSpec
	}{{
		name: "java agent extends the product's JVM options",
		opts: sidecar.JMXOptions{},
		want: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:         "main",
				Env:          []corev1.EnvVar{{Name: "JAVA_TOOL_OPTIONS", Value: "-Xmx1g -javaagent:/opkit/jmx/jmx_prometheus.jar=9404:/opkit/jmx-config/jmx-exporter.yaml"}},
				Ports:        []corev1.ContainerPort{metrics},
				VolumeMounts: []corev1.VolumeMount{rulesMount},
			}},
			Volumes: []corev1.Volume{rulesVolume},
		},
	}, {
		name: "container runs the product image",
		opts: sidecar.JMXOptions{Mode: sidecar.JMXContainer},
		want: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "main",
				Env:  []corev1.EnvVar{{Name: "JAVA_TOOL_OPTIONS", Value: "-Xmx1g " + remote}},
			}, {
				Name:            "jmx-exporter",
				Image:           "kafka:3.9",
				ImagePullPolicy: corev1.PullAlways,
				Command:         []string{"java", "-jar", "/opkit/jmx/jmx_prometheus.jar", "9404", "/opkit/jmx-config/jmx-exporter.yaml"},
				Ports:           []corev1.ContainerPort{metrics},
				Resources:       corev1.ResourceRequirements{Requests: small, Limits: small},
				VolumeMounts:    []corev1.VolumeMount{rulesMount, {Name: "jmx-exporter-tmp", MountPath: "/tmp"}},
				SecurityContext: hardened(),
			}},
			Volumes: []corev1.Volume{rulesVolume, {Name: "jmx-exporter-tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jmx, err := sidecar.NewJMXExporter(tt.opts)
			require.NoError(t, err)
			reg, err := sidecar.NewRegistry(jmx)
			require.NoError(t, err)
			plan := mustPlan(t, reg, sidecar.PlanOptions{ProductImage: sidecar.ProductImage{Reference: "kafka:3.9", PullPolicy: corev1.PullAlways}})
			spec := &corev1.PodSpec{Containers: []corev1.Container{{
				Name: "main", Env: []corev1.EnvVar{{Name: "JAVA_TOOL_OPTIONS", Value: "-Xmx1g"}},
			}}}
			require.NoError(t, plan.Inject(spec, jmxTarget))
			if diff := cmp.Diff(tt.want, *spec); diff != "" {
				t.Errorf("pod spec (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJMXExporterRefusals(t *testing.T) {
	tests := []struct {
		name string
		opts sidecar.JMXOptions
		spec corev1.PodSpec
		want string
	}{
		{name: "container mode without any image", opts: sidecar.JMXOptions{Mode: sidecar.JMXContainer},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}},
			want: `inject sidecar "jmx-exporter": no image for the jmx-exporter container: set JMXOptions.Image or the product image`},
		{name: "metrics port taken", opts: sidecar.JMXOptions{},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 9404}}}}},
			want: `inject sidecar "jmx-exporter": port "metrics" of container "main" already exists`},
		{name: "JVM options from a reference", opts: sidecar.JMXOptions{},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Env: []corev1.EnvVar{{Name: "JAVA_TOOL_OPTIONS",
				ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{Key: "opts"}}}}}}},
			want: `inject sidecar "jmx-exporter": env "JAVA_TOOL_OPTIONS" of container "main" already exists`},
		{name: "no main container", opts: sidecar.JMXOptions{},
			spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "other"}}},
			want: `inject sidecar "jmx-exporter": main container "main" is not in the pod`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jmx, err := sidecar.NewJMXExporter(tt.opts)
			require.NoError(t, err)
			reg, err := sidecar.NewRegistry(jmx)
			require.NoError(t, err)
			err = mustPlan(t, reg, sidecar.PlanOptions{}).Inject(&tt.spec, jmxTarget)
			require.Error(t, err)
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewJMXExporterRejectsBadOptions(t *testing.T) {
	_, err := sidecar.NewJMXExporter(sidecar.JMXOptions{Mode: "sidecar", MetricsPort: 70000})
	require.Error(t, err)
	want := "JMXOptions.Mode: \"sidecar\" is not \"javaagent\" or \"container\"\nJMXOptions.MetricsPort: 70000 is not in 1-65535"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.ErrorIs(t, err, failure.ErrInvalid)
	require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
}

func TestJMXExporterRequirements(t *testing.T) {
	tests := []struct {
		name string
		opts sidecar.JMXOptions
		want []sidecar.Requirement
	}{
		{name: "the role group's ConfigMap, named by the framework", opts: sidecar.JMXOptions{},
			want: []sidecar.Requirement{{Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "kafka-broker-default",
				Keys: []string{"jmx-exporter.yaml"}, NamedBy: failure.AuthorOperator, Provider: "jmx-exporter"}}},
		{name: "a ConfigMap the user named", opts: sidecar.JMXOptions{ConfigMapName: "rules", ConfigKey: "r.yaml",
			ConfigMapField: "spec.roles.broker.config.jmxRules"},
			want: []sidecar.Requirement{{Kind: sidecar.KindConfigMap, Namespace: "ns", Name: "rules", Keys: []string{"r.yaml"},
				Field: "spec.roles.broker.config.jmxRules", NamedBy: failure.AuthorUser, Provider: "jmx-exporter"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jmx, err := sidecar.NewJMXExporter(tt.opts)
			require.NoError(t, err)
			reg, err := sidecar.NewRegistry(jmx)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, mustPlan(t, reg, sidecar.PlanOptions{}).Requirements(jmxTarget)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
