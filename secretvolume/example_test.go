package secretvolume_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/secretvolume"
)

// A product serving TLS with certificates of the user's secret class,
// issued for its pods and its client Service, with a keytab for Kerberos.
func Example() {
	set := secretvolume.New(secretvolume.Options{}).Add(
		secretvolume.TLS("tls", "tls", &secretclassv1alpha1.Scope{Pod: true, Services: []string{"trino"}}).
			WithPKCS12Password("changeit").
			From(failure.AuthorUser, "spec.clusterConfig.tls.serverSecretClass"),
		secretvolume.Kerberos("kerberos", "kerberos", "HTTP"),
	)
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "trino"}}}
	if err := set.Inject(spec, builders.PodTarget{MainContainer: "trino"}); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range spec.Containers[0].VolumeMounts {
		fmt.Println(m.Name, m.MountPath, m.ReadOnly)
	}
	fmt.Println(set.File("tls", secretvolume.KeystoreFile))
	fmt.Println(spec.Volumes[0].Ephemeral.VolumeClaimTemplate.Annotations["secrets.opkit.dev/scope"])

	_, err := secretvolume.New(secretvolume.Options{}).
		Add(secretvolume.TLS("tls", "", nil).From(failure.AuthorUser, "spec.clusterConfig.tls.serverSecretClass")).
		Volumes()
	fmt.Println(err)
	// Output:
	// tls /opkit/secret/tls true
	// kerberos /opkit/secret/kerberos true
	// /opkit/secret/tls/keystore.p12
	// pod,service=trino
	// spec.clusterConfig.tls.serverSecretClass: the secret class is empty
}
