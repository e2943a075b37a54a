package secretvolume_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/secretvolume"
)

// ephemeral returns the volume the secret operator expects: a claim
// template of its storage class, annotated.
func ephemeral(name, driver string, annotations map[string]string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
		VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Annotations: annotations},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				StorageClassName: ptr.To(driver),
				Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Mi")}},
			},
		}}}}
}

func TestVolumes(t *testing.T) {
	tests := []struct {
		name string
		opts secretvolume.Options
		req  secretvolume.Request
		want corev1.Volume
	}{
		{
			name: "TLS for the pod by default, in PEM",
			req:  secretvolume.TLS("tls", "tls", nil),
			want: ephemeral("tls", "secrets.opkit.dev", map[string]string{
				"secrets.opkit.dev/class": "tls", "secrets.opkit.dev/scope": "pod", "secrets.opkit.dev/format": "tls-pem"}),
		},
		{
			name: "TLS for the pod, a Service and a listener volume, as a PKCS#12 key store",
			req: secretvolume.TLS("tls", "tls", &secretclassv1alpha1.Scope{Pod: true, Services: []string{"trino"}, ListenerVolumes: []string{"listener"}}).
				WithPKCS12Password("changeit"),
			want: ephemeral("tls", "secrets.opkit.dev", map[string]string{
				"secrets.opkit.dev/class": "tls", "secrets.opkit.dev/scope": "pod,service=trino,listener-volume=listener",
				"secrets.opkit.dev/format": "tls-p12", "secrets.opkit.dev/tlsPKCS12Password": "changeit"}),
		},
		{
			name: "a keytab with two principals",
			req:  secretvolume.Kerberos("kerberos", "kerberos", "HTTP", "nn"),
			want: ephemeral("kerberos", "secrets.opkit.dev", map[string]string{
				"secrets.opkit.dev/class": "kerberos", "secrets.opkit.dev/scope": "pod", "secrets.opkit.dev/format": "kerberos",
				"secrets.opkit.dev/kerberosServiceNames": "HTTP,nn"}),
		},
		{
			name: "credentials as the class holds them, with the user's scope",
			req:  secretvolume.Credentials("s3-credentials", secretclassv1alpha1.Volume{SecretClass: "s3", Scope: &secretclassv1alpha1.Scope{Node: true}}),
			want: ephemeral("s3-credentials", "secrets.opkit.dev", map[string]string{
				"secrets.opkit.dev/class": "s3", "secrets.opkit.dev/scope": "node"}),
		},
		{
			name: "another secret operator's driver",
			opts: secretvolume.Options{Driver: "secrets.example.com"},
			req:  secretvolume.TLS("tls", "tls", nil),
			want: ephemeral("tls", "secrets.example.com", map[string]string{
				"secrets.example.com/class": "tls", "secrets.example.com/scope": "pod", "secrets.example.com/format": "tls-pem"}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := secretvolume.New(tt.opts).Add(tt.req).Volumes()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]corev1.Volume{tt.want}, got); diff != "" {
				t.Errorf("volumes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMountPathsAreResolvedInOnePlace(t *testing.T) {
	set := secretvolume.New(secretvolume.Options{})
	custom := secretvolume.New(secretvolume.Options{MountRoot: "/etc/secrets/"})
	got := []string{
		set.MountPath("tls"), set.File("tls", secretvolume.KeystoreFile), set.File("kerberos", secretvolume.KeytabFile),
		custom.MountPath("tls"), custom.File("tls", secretvolume.CACertFile),
	}
	want := []string{
		"/opkit/secret/tls", "/opkit/secret/tls/keystore.p12", "/opkit/secret/kerberos/keytab",
		"/etc/secrets/tls", "/etc/secrets/tls/ca.crt",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}

func TestResultsShareNoMemoryWithTheRequest(t *testing.T) {
	scope := &secretclassv1alpha1.Scope{Services: []string{"trino"}}
	set := secretvolume.New(secretvolume.Options{}).Add(secretvolume.TLS("tls", "tls", scope))
	scope.Services[0] = "changed"
	first, err := set.Volumes()
	if err != nil {
		t.Fatal(err)
	}
	first[0].Ephemeral.VolumeClaimTemplate.Annotations["secrets.opkit.dev/class"] = "changed"
	second, err := set.Volumes()
	if err != nil {
		t.Fatal(err)
	}
	got := second[0].Ephemeral.VolumeClaimTemplate.Annotations
	if got["secrets.opkit.dev/scope"] != "service=trino" || got["secrets.opkit.dev/class"] != "tls" {
		t.Errorf("a change to the request or to a result leaked into the next result: %v", got)
	}
}
