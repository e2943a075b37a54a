package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

func overrideBase() *corev1.PodTemplateSpec {
	return &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "main",
			Env: []corev1.EnvVar{
				{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				{Name: "PLAIN", Value: "x"},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opkit/config"}},
			LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"check"}}},
				PeriodSeconds: 10},
			Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"stop"}}}},
		}},
		Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}}}}},
		ImagePullSecrets: []corev1.LocalObjectReference{{Name: "registry"}},
	}}
}

func TestApplyPodOverrides(t *testing.T) {
	tests := []struct {
		name   string
		layers []string
		want   func(*corev1.PodTemplateSpec)
	}{
		{
			name:   "env value replaces valueFrom",
			layers: []string{`{"spec":{"containers":[{"name":"main","env":[{"name":"POD","value":"fixed"}]}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Containers[0].Env[0] = corev1.EnvVar{Name: "POD", Value: "fixed"}
			},
		},
		{
			name:   "env valueFrom replaces value",
			layers: []string{`{"spec":{"containers":[{"name":"main","env":[{"name":"PLAIN","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}]}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Containers[0].Env[1] = corev1.EnvVar{Name: "PLAIN", ValueFrom: &corev1.EnvVarSource{
					FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"}}}
			},
		},
		{
			name:   "volume source replaced",
			layers: []string{`{"spec":{"volumes":[{"name":"config","emptyDir":{}}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Volumes[0].VolumeSource = corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}
			},
		},
		{
			name:   "probe handler replaced, other probe fields kept",
			layers: []string{`{"spec":{"containers":[{"name":"main","livenessProbe":{"httpGet":{"path":"/health","port":8080}}}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Containers[0].LivenessProbe.ProbeHandler = corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
					Path: "/health", Port: intstr.FromInt32(8080)}}
			},
		},
		{
			name:   "lifecycle hook replaced",
			layers: []string{`{"spec":{"containers":[{"name":"main","lifecycle":{"preStop":{"sleep":{"seconds":5}}}}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Containers[0].Lifecycle.PreStop = &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}
			},
		},
		{
			name: "mount at a new path with its volume",
			layers: []string{`{"spec":{"volumes":[{"name":"extra","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"extra","mountPath":"/extra"}]}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.Volumes = append([]corev1.Volume{{Name: "extra", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}, p.Spec.Volumes...)
				p.Spec.Containers[0].VolumeMounts = append([]corev1.VolumeMount{{Name: "extra", MountPath: "/extra"}}, p.Spec.Containers[0].VolumeMounts...)
			},
		},
		{
			name:   "pull secret added beside the framework's",
			layers: []string{`{"spec":{"imagePullSecrets":[{"name":"mirror"}]}}`},
			want: func(p *corev1.PodTemplateSpec) {
				p.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "mirror"}, {Name: "registry"}}
			},
		},
		{
			name: "later layer wins",
			layers: []string{`{"spec":{"containers":[{"name":"main","env":[{"name":"PLAIN","value":"role"}]}]}}`,
				`{"spec":{"containers":[{"name":"main","env":[{"name":"PLAIN","value":"group"}]}]}}`},
			want: func(p *corev1.PodTemplateSpec) { p.Spec.Containers[0].Env[1].Value = "group" },
		},
		{
			name:   "same volume remounted read-only at its path is no displacement",
			layers: []string{`{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"config","mountPath":"/opkit/config","readOnly":true}]}]}}`},
			want:   func(p *corev1.PodTemplateSpec) { p.Spec.Containers[0].VolumeMounts[0].ReadOnly = true },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := overrideBase()
			var layers []PodOverride
			for i, l := range tt.layers {
				layer := commonsv1alpha1.LayerRole
				if i > 0 {
					layer = commonsv1alpha1.LayerRoleGroup
				}
				layers = append(layers, PodOverride{Layer: layer, Patch: []byte(l)})
			}
			got, err := ApplyPodOverrides(testScope(), base, nil, layers...)
			require.NoError(t, err)
			want := overrideBase()
			tt.want(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("merged template (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(overrideBase(), base); diff != "" {
				t.Errorf("input template modified (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyPodOverridesViolations(t *testing.T) {
	const group = "spec.roles.server.roleGroups.default.podOverrides"
	const role = "spec.roles.server.podOverrides"
	tests := []struct {
		name   string
		role   string
		group  string
		claims []string
		want   []string
	}{
		{
			name: "mount displacing the framework's volume, its volume declared",
			group: `{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/config"}]}]}}`,
			want: []string{group + `.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]: mounting volume "mine" at /opkit/config would displace the framework's volume "config" mounted there; mount it at another path`},
		},
		{
			name: "mount displacing the framework's volume, nothing declared, in the role's layer",
			role: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/config"}]}]}}`,
			want: []string{role + `.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]: mounting volume "mine" at /opkit/config would displace the framework's volume "config" mounted there; mount it at another path`},
		},
		{
			name:  "mount of an undeclared volume at a new path",
			group: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"ghost","mountPath":"/ghost"}]}]}}`,
			want:  []string{group + `.spec.containers[name=main].volumeMounts[mountPath=/ghost]: volume "ghost" mounted at /ghost is not a volume of the pod; declare it in podOverrides.spec.volumes`},
		},
		{
			name:  "mount in the role's layer, volume in the group's: fine",
			role:  `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"extra","mountPath":"/extra"}]}]}}`,
			group: `{"spec":{"volumes":[{"name":"extra","emptyDir":{}}]}}`,
		},
		{
			name:  "volume deleted from under the framework's mount, blamed on the layer deleting it",
			role:  `{"spec":{"volumes":[{"name":"config","$patch":"delete"}]}}`,
			group: `{"metadata":{"labels":{"a":"b"}}}`,
			want:  []string{role + `.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]: volume "config" mounted at /opkit/config is not a volume of the pod; declare it in podOverrides.spec.volumes`},
		},
		{
			name:  "mount list replaced wholesale",
			group: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"$patch":"replace"},{"name":"config","mountPath":"/elsewhere"}]}]}}`,
			want:  []string{group + `.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]: removes the framework's mount of volume "config" at /opkit/config; add your mounts beside it instead of replacing the list`},
		},
		{
			name:   "a claim template backs a mount",
			group:  `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"data","mountPath":"/more"}]}]}}`,
			claims: []string{"data"},
		},
		{
			name:  "every layer's violations are reported",
			role:  `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"a","mountPath":"/opkit/config"}]}]}}`,
			group: `{"spec":{"containers":"nope"}}`,
			want: []string{
				role + `.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]: mounting volume "a" at /opkit/config would displace the framework's volume "config" mounted there; mount it at another path`,
				group + `: not a pod template: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ApplyPodOverrides(testScope(), overrideBase(), tt.claims,
				PodOverride{Layer: commonsv1alpha1.LayerRole, Patch: []byte(tt.role)},
				PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(tt.group)})
			if diff := cmp.Diff(tt.want, messages(t, err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if err != nil {
				require.Equal(t, failure.AuthorUser, failure.AuthorOf(err))
			}
		})
	}
}

func TestStatefulSetPodOverrides(t *testing.T) {
	scope := testScope()
	marker := RoleGroupMarkerLabelKey("prod", "default")
	t.Run("selector labels re-asserted, user labels kept", func(t *testing.T) {
		sts, err := NewStatefulSet(scope, corev1.Container{Name: "main"}).WithPodOverrides(PodOverride{
			Layer: commonsv1alpha1.LayerRoleGroup,
			Patch: []byte(`{"metadata":{"labels":{"app.kubernetes.io/instance":"hijack","` + marker + `":null,"extra":"yes"}}}`),
		}).Build()
		require.NoError(t, err)
		want := scope.Labels()
		want["extra"] = "yes"
		if diff := cmp.Diff(want, sts.Spec.Template.Labels); diff != "" {
			t.Errorf("template labels (-want +got):\n%s", diff)
		}
	})
	t.Run("user wins over the built template", func(t *testing.T) {
		sts, err := NewStatefulSet(scope, corev1.Container{Name: "main"}).
			WithConfig(testConfig(), nil).
			WithPodOverrides(PodOverride{Layer: commonsv1alpha1.LayerRole, Patch: []byte(`{"spec":{"terminationGracePeriodSeconds":7}}`)}).Build()
		require.NoError(t, err)
		require.Equal(t, ptr.To[int64](7), sts.Spec.Template.Spec.TerminationGracePeriodSeconds)
	})
	t.Run("violation fails the build naming podOverrides", func(t *testing.T) {
		_, err := NewStatefulSet(scope, corev1.Container{Name: "main"}).
			WithDataVolume(DataVolume{MountPath: "/data"}).WithConfig(testConfig(), nil).
			WithPodOverrides(PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(`{"spec":{"volumes":[{"name":"x","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"x","mountPath":"/data"}]}]}}`)}).Build()
		want := []string{`spec.roles.server.roleGroups.default.podOverrides.spec.containers[name=main].volumeMounts[mountPath=/data]: ` +
			`mounting volume "x" at /data would displace the framework's volume "data" mounted there; mount it at another path`}
		if diff := cmp.Diff(want, messages(t, err)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
