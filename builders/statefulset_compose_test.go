package builders

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// expand resolves $(VAR) references of a container's env as the kubelet
// does: a reference is replaced only by a variable defined earlier in the
// list; $$ is a literal $; anything else stays as written.
func expand(env []corev1.EnvVar) map[string]string {
	defined := map[string]string{}
	for _, e := range env {
		var b strings.Builder
		v := e.Value
		for i := 0; i < len(v); i++ {
			if v[i] == '$' && i+1 < len(v) {
				switch v[i+1] {
				case '$':
					b.WriteByte('$')
					i++
					continue
				case '(':
					if end := strings.IndexByte(v[i+2:], ')'); end >= 0 {
						name := v[i+2 : i+2+end]
						if val, ok := defined[name]; ok {
							b.WriteString(val)
						} else {
							b.WriteString(v[i : i+3+end])
						}
						i += 2 + end
						continue
					}
				}
			}
			b.WriteByte(v[i])
		}
		defined[e.Name] = b.String()
	}
	return defined
}

func TestEnvKeepsDeclarationOrderSoReferencesExpand(t *testing.T) {
	tests := []struct {
		name      string
		container []corev1.EnvVar
		declared  []corev1.EnvVar
		overrides map[string]string
		expanded  map[string]string
	}{
		{
			name:      "new overrides referencing each other",
			overrides: map[string]string{"A_PATH": "$(Z_BASE)/bin", "Z_BASE": "/opt"},
			expanded:  map[string]string{"Z_BASE": "/opt", "A_PATH": "/opt/bin"},
		},
		{
			name:      "override replaces in place, declared references keep working",
			container: []corev1.EnvVar{{Name: "HOME_DIR", Value: "/home"}},
			declared:  []corev1.EnvVar{{Name: "LOGS", Value: "$(HOME_DIR)/logs"}, {Name: "X", Value: "declared"}},
			overrides: map[string]string{"HOME_DIR": "/srv", "APP": "$(LOGS)/app"},
			expanded:  map[string]string{"HOME_DIR": "/srv", "LOGS": "/srv/logs", "X": "declared", "APP": "/srv/logs/app"},
		},
		{
			name:     "a declared variable named twice keeps its first place",
			declared: []corev1.EnvVar{{Name: "B", Value: "1"}, {Name: "A", Value: "$(B)"}, {Name: "B", Value: "2"}},
			expanded: map[string]string{"B": "2", "A": "2"},
		},
		{
			name:      "a cycle falls back to names, unexpanded",
			overrides: map[string]string{"P": "$(Q)", "Q": "$(P)", "ESC": "$$(P)"},
			expanded:  map[string]string{"ESC": "$(P)", "P": "$(Q)", "Q": "$(Q)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main", Env: tt.container}).
				WithEnv(tt.declared...).WithEnvOverrides(tt.overrides).Build()
			require.NoError(t, err)
			env := sts.Spec.Template.Spec.Containers[0].Env
			if diff := cmp.Diff(tt.expanded, expand(env)); diff != "" {
				t.Errorf("expanded env (-want +got):\n%s\n%v", diff, env)
			}
		})
	}
}

func TestEnvOrderIsDeclarationThenNewOverrides(t *testing.T) {
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main", Env: []corev1.EnvVar{{Name: "Z", Value: "1"}}}).
		WithEnv(corev1.EnvVar{Name: "M", Value: "2"}, corev1.EnvVar{Name: "A", Value: "3"}).
		WithEnvOverrides(map[string]string{"M": "user", "C": "$(D)", "B": "b", "D": "d"}).Build()
	require.NoError(t, err)
	var got []string
	for _, e := range sts.Spec.Template.Spec.Containers[0].Env {
		got = append(got, e.Name+"="+e.Value)
	}
	want := []string{"Z=1", "M=user", "A=3", "B=b", "D=d", "C=$(D)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
}

func TestCliOverridesReachTheMainContainersArgs(t *testing.T) {
	tests := []struct {
		name      string
		main, cli []string
		want      []string
	}{
		{name: "appended after the product's args", main: []string{"start", "--config=/c"}, cli: []string{"--debug", "-Xfoo"},
			want: []string{"start", "--config=/c", "--debug", "-Xfoo"}},
		{name: "no product args", cli: []string{"--debug"}, want: []string{"--debug"}},
		{name: "none stated", main: []string{"start"}, want: []string{"start"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main", Args: tt.main}).
				WithContainers(corev1.Container{Name: "sidecar", Args: []string{"x"}}).
				WithCliOverrides(tt.cli...).Build()
			require.NoError(t, err)
			cs := sts.Spec.Template.Spec.Containers
			if diff := cmp.Diff(tt.want, cs[0].Args); diff != "" {
				t.Errorf("main args (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"x"}, cs[1].Args); diff != "" {
				t.Errorf("other container's args touched (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithConfigVolumeMountsTheRoleGroupsConfigMap(t *testing.T) {
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithConfigVolume("/opkit/config").Build()
	require.NoError(t, err)
	spec := sts.Spec.Template.Spec
	wantVolumes := []corev1.Volume{{Name: ConfigVolumeName, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: "prod-server-default"}}}}}
	if diff := cmp.Diff(wantVolumes, spec.Volumes); diff != "" {
		t.Errorf("volumes (-want +got):\n%s", diff)
	}
	wantMounts := []corev1.VolumeMount{{Name: ConfigVolumeName, MountPath: "/opkit/config", ReadOnly: true}}
	if diff := cmp.Diff(wantMounts, spec.Containers[0].VolumeMounts); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
	cm, err := NewConfigMap(testScope()).Build()
	require.NoError(t, err)
	require.Equal(t, cm.Name, spec.Volumes[0].ConfigMap.Name, "the volume names the ConfigMap NewConfigMap builds")
}

// agentInjector adds a sidecar that mounts a log volume in itself and the
// main container, as a log agent does.
type agentInjector struct{ fail error }

func (a agentInjector) Inject(spec *corev1.PodSpec, target PodTarget) error {
	if a.fail != nil {
		return a.fail
	}
	main := findContainer(spec.Containers, target.MainContainer)
	main.VolumeMounts = append(main.VolumeMounts, corev1.VolumeMount{Name: "log", MountPath: "/opkit/log"})
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: "log", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	spec.Containers = append(spec.Containers, corev1.Container{Name: "agent", Image: "agent:1",
		Resources:    corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}},
		VolumeMounts: []corev1.VolumeMount{{Name: "log", MountPath: "/opkit/log", ReadOnly: true}}})
	return nil
}

func TestSidecarsArePartOfTheTemplateOverridesApplyTo(t *testing.T) {
	build := func(patch string) (*corev1.PodSpec, error) {
		sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).
			WithInjectors(agentInjector{}).
			WithPodOverrides(PodOverride{Layer: commonsv1alpha1.LayerRoleGroup, Patch: []byte(patch)}).Build()
		if err != nil {
			return nil, err
		}
		return &sts.Spec.Template.Spec, nil
	}
	t.Run("a user overrides the sidecar's resources", func(t *testing.T) {
		spec, err := build(`{"spec":{"containers":[{"name":"agent","resources":{"limits":{"memory":"1Gi"}}}]}}`)
		require.NoError(t, err)
		agent := findContainer(spec.Containers, "agent")
		require.NotNil(t, agent)
		require.Equal(t, "1Gi", agent.Resources.Limits.Memory().String())
		require.Equal(t, RestrictedContainerSecurityContext(), agent.SecurityContext, "the sidecar is hardened too")
	})
	t.Run("a mount at the log volume's path is a mount violation naming podOverrides", func(t *testing.T) {
		_, err := build(`{"spec":{"volumes":[{"name":"mine","emptyDir":{}}],
			"containers":[{"name":"main","volumeMounts":[{"name":"mine","mountPath":"/opkit/log"}]}]}}`)
		want := []string{`spec.roles.server.roleGroups.default.podOverrides.spec.containers[name=main].volumeMounts[mountPath=/opkit/log]: ` +
			`mounting volume "mine" at /opkit/log would displace the framework's volume "log" mounted there; mount it at another path`}
		if diff := cmp.Diff(want, messages(t, err)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("an injector's error fails the build as it is", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithInjectors(agentInjector{fail: boom}).Build()
		require.ErrorIs(t, err, boom)
	})
}

func TestContainersAddedByPodOverridesGetTheRestrictedDefaults(t *testing.T) {
	sts, err := NewStatefulSet(testScope(), corev1.Container{Name: "main"}).WithPodOverrides(PodOverride{
		Layer: commonsv1alpha1.LayerRole,
		Patch: []byte(`{"spec":{
			"initContainers":[{"name":"wait","image":"busybox:1"}],
			"containers":[{"name":"debug","image":"busybox:1","securityContext":{"runAsUser":4242}}]}}`),
	}).Build()
	require.NoError(t, err)
	spec := sts.Spec.Template.Spec
	require.Equal(t, RestrictedContainerSecurityContext(), findContainer(spec.InitContainers, "wait").SecurityContext)
	debug := RestrictedContainerSecurityContext()
	debug.RunAsUser = ptrTo[int64](4242)
	require.Equal(t, debug, findContainer(spec.Containers, "debug").SecurityContext, "set fields are kept, unset ones filled")
}

func ptrTo[T any](v T) *T { return &v }
