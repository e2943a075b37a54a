// Package secretvolume builds the volumes through which a secret operator
// delivers secrets to pods: TLS certificates of a secret class, Kerberos
// keytabs, credentials. Each is a CSI ephemeral volume whose claim template
// names the class, the scope and the format in annotations; the operator
// provisions the files when the pod starts. Pure: no client-go, no
// controller-runtime.
//
// A Set collects a pod's requests and resolves every mount path in one
// place ("<MountRoot>/<volume name>"), so the product's config files, its
// start script and the pod agree on where a file is:
//
//	set := secretvolume.New(secretvolume.Options{})
//	set.Add(secretvolume.TLS("tls", cr.Spec.TLS.ServerSecretClass, nil).
//		From(failure.AuthorUser, "spec.tls.serverSecretClass"))
//	set.Add(secretvolume.Kerberos("kerberos", "kerberos", "HTTP", "trino"))
//	keystore := set.File("tls", secretvolume.KeystoreFile) // "/opkit/secret/tls/keystore.p12"
//	sts, err := builders.NewStatefulSet(scope, main).
//		WithInjectors(set). // volumes, and read-only mounts in the main container
//		WithPodOverrides(layers...).
//		Build()
//
// The mounts are added before the pod overrides, so they are framework
// mounts a user's podOverrides may not displace. A request that cannot be
// honoured (an empty class, a name that is no volume name, two volumes at
// one path) is a *failure.InvalidError naming the field it came from.
package secretvolume
