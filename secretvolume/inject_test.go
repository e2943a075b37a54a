package secretvolume_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/secretvolume"
)

func pod() *corev1.PodSpec {
	return &corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "prepare"}},
		Containers:     []corev1.Container{{Name: "sidecar"}, {Name: "main", VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opkit/config"}}}},
		Volumes:        []corev1.Volume{{Name: "config"}},
	}
}

func mountsOf(spec *corev1.PodSpec) map[string][]corev1.VolumeMount {
	out := map[string][]corev1.VolumeMount{}
	for _, c := range append(spec.InitContainers, spec.Containers...) {
		out[c.Name] = c.VolumeMounts
	}
	return out
}

func TestInjectMountsReadOnlyWhereAsked(t *testing.T) {
	set := secretvolume.New(secretvolume.Options{}).Add(
		secretvolume.TLS("tls", "tls", nil),
		secretvolume.Kerberos("kerberos", "kerberos", "HTTP").MountedIn("prepare", "main"),
	)
	spec := pod()
	if err := set.Inject(spec, builders.PodTarget{MainContainer: "main"}); err != nil {
		t.Fatal(err)
	}
	want := map[string][]corev1.VolumeMount{
		"prepare": {{Name: "kerberos", MountPath: "/opkit/secret/kerberos", ReadOnly: true}},
		"sidecar": nil,
		"main": {
			{Name: "config", MountPath: "/opkit/config"},
			{Name: "tls", MountPath: "/opkit/secret/tls", ReadOnly: true},
			{Name: "kerberos", MountPath: "/opkit/secret/kerberos", ReadOnly: true},
		},
	}
	if diff := cmp.Diff(want, mountsOf(spec)); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
	var names []string
	for _, v := range spec.Volumes {
		names = append(names, v.Name)
	}
	if diff := cmp.Diff([]string{"config", "tls", "kerberos"}, names); diff != "" {
		t.Errorf("volumes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(set.Mounts("main", true), want["main"][1:]); diff != "" {
		t.Errorf("Mounts of the main container (-want +got):\n%s", diff)
	}
}

func TestInjectChangesNothingWhenItFails(t *testing.T) {
	tests := []struct {
		name string
		req  secretvolume.Request
	}{
		{"a container that is not in the pod", secretvolume.TLS("tls", "tls", nil).MountedIn("missing")},
		{"a volume name the pod already uses", secretvolume.TLS("config", "tls", nil)},
		{"an invalid request", secretvolume.TLS("tls", "", nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := pod()
			err := secretvolume.New(secretvolume.Options{}).Add(tt.req).Inject(spec, builders.PodTarget{MainContainer: "main"})
			if err == nil {
				t.Fatal("Inject succeeded")
			}
			if diff := cmp.Diff(pod(), spec); diff != "" {
				t.Errorf("a failed Inject changed the pod (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInjectRefusesAPathTheContainerUses(t *testing.T) {
	spec := pod()
	spec.Containers[1].VolumeMounts = append(spec.Containers[1].VolumeMounts, corev1.VolumeMount{Name: "other", MountPath: "/opkit/secret/tls"})
	err := secretvolume.New(secretvolume.Options{}).Add(secretvolume.TLS("tls", "tls", nil)).Inject(spec, builders.PodTarget{MainContainer: "main"})
	if err == nil {
		t.Fatal("a second mount at /opkit/secret/tls was accepted")
	}
}
