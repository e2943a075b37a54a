package builders

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
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
			var layers [][]byte
			for _, l := range tt.layers {
				layers = append(layers, []byte(l))
			}
			got, errs := ApplyPodOverrides(base, nil, layers...)
			require.Empty(t, errs)
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
	tests := []struct {
		name   string
		layer  string
		claims []string
		want   []ValidationError
	}{
		{
			name: "mount displacing the framework's volume, its volume declared",
			layer: `{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/config"}]}]}}`,
			want: []ValidationError{{Field: "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]",
				Message: `mounting volume "mine" at /opkit/config would displace the framework's volume "config" mounted there; mount it at another path`}},
		},
		{
			name:  "mount displacing the framework's volume, nothing declared",
			layer: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/config"}]}]}}`,
			want: []ValidationError{{Field: "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]",
				Message: `mounting volume "mine" at /opkit/config would displace the framework's volume "config" mounted there; mount it at another path`}},
		},
		{
			name:  "mount of an undeclared volume at a new path",
			layer: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"ghost","mountPath":"/ghost"}]}]}}`,
			want: []ValidationError{{Field: "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/ghost]",
				Message: `volume "ghost" mounted at /ghost is not a volume of the pod; declare it in podOverrides.spec.volumes`}},
		},
		{
			name:  "volume deleted from under the framework's mount",
			layer: `{"spec":{"volumes":[{"name":"config","$patch":"delete"}]}}`,
			want: []ValidationError{{Field: "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]",
				Message: `volume "config" mounted at /opkit/config is not a volume of the pod; declare it in podOverrides.spec.volumes`}},
		},
		{
			name:  "mount list replaced wholesale",
			layer: `{"spec":{"containers":[{"name":"main","volumeMounts":[{"$patch":"replace"},{"name":"config","mountPath":"/elsewhere"}]}]}}`,
			want: []ValidationError{{Field: "podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/config]",
				Message: `podOverrides removes the framework's mount of volume "config" at /opkit/config; add your mounts beside it instead of replacing the list`}},
		},
		{
			name:   "a claim template backs a mount",
			layer:  `{"spec":{"containers":[{"name":"main","volumeMounts":[{"name":"data","mountPath":"/more"}]}]}}`,
			claims: []string{"data"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ApplyPodOverrides(overrideBase(), tt.claims, []byte(tt.layer))
			var got []ValidationError
			for _, err := range errs {
				var verr *ValidationError
				require.True(t, errors.As(err, &verr), "not a ValidationError: %v", err)
				got = append(got, *verr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyPodOverridesUndecodableLayer(t *testing.T) {
	_, errs := ApplyPodOverrides(overrideBase(), nil, []byte(`{"spec":{"containers":"nope"}}`))
	require.Len(t, errs, 1)
	var verr *ValidationError
	require.True(t, errors.As(errs[0], &verr))
	require.Equal(t, "podOverrides", verr.Field)
}

func TestStatefulSetPodOverrides(t *testing.T) {
	scope := testScope()
	marker := RoleGroupMarkerLabelKey("prod", "default")
	t.Run("selector labels re-asserted, user labels kept", func(t *testing.T) {
		sts, err := NewStatefulSet(scope, corev1.Container{Name: "main"}).WithPodOverrides(
			[]byte(`{"metadata":{"labels":{"app.kubernetes.io/instance":"hijack","` + marker + `":null,"extra":"yes"}}}`),
		).Build()
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
			WithPodOverrides([]byte(`{"spec":{"terminationGracePeriodSeconds":7}}`)).Build()
		require.NoError(t, err)
		require.Equal(t, ptr.To[int64](7), sts.Spec.Template.Spec.TerminationGracePeriodSeconds)
	})
	t.Run("violation fails the build naming podOverrides", func(t *testing.T) {
		_, err := NewStatefulSet(scope, corev1.Container{Name: "main"}).
			WithDataVolume(DataVolume{MountPath: "/data"}).WithConfig(testConfig(), nil).
			WithPodOverrides([]byte(`{"spec":{"volumes":[{"name":"x","emptyDir":{}}],
				"containers":[{"name":"main","volumeMounts":[{"name":"x","mountPath":"/data"}]}]}}`)).Build()
		var verr *ValidationError
		require.True(t, errors.As(err, &verr), "got %v", err)
		for _, s := range []string{"podOverrides", "/data", `"data"`} {
			require.True(t, strings.Contains(err.Error(), s), "%q not in %q", s, err)
		}
	})
}
