package secretvolume_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/secretvolume"
)

func TestKerberosNames(t *testing.T) {
	got := secretvolume.Principal("HTTP", "prod-server-default-0.prod-server-default-headless.data.svc.cluster.local", "EXAMPLE.COM")
	if want := "HTTP/prod-server-default-0.prod-server-default-headless.data.svc.cluster.local@EXAMPLE.COM"; got != want {
		t.Errorf("Principal = %q, want %q", got, want)
	}
	env := secretvolume.New(secretvolume.Options{}).KerberosEnv("kerberos")
	if diff := cmp.Diff([]corev1.EnvVar{{Name: "KRB5_CONFIG", Value: "/opkit/secret/kerberos/krb5.conf"}}, env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
}
