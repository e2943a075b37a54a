package secretvolume

import corev1 "k8s.io/api/core/v1"

// EnvKrb5Config is the variable Kerberos clients read their configuration
// file's path from.
const EnvKrb5Config = "KRB5_CONFIG"

// Principal returns the principal of service on host in realm, as the
// keytab of a Kerberos request holds it: "<service>/<host>@<realm>". host
// is the pod's fully qualified name (for a StatefulSet pod,
// "<pod>.<headless service>.<namespace>.svc.<cluster domain>").
func Principal(service, host, realm string) string {
	return service + "/" + host + "@" + realm
}

// KerberosEnv returns the environment that points a Kerberos client at the
// krb5.conf of the volume name.
func (s *Set) KerberosEnv(name string) []corev1.EnvVar {
	return []corev1.EnvVar{{Name: EnvKrb5Config, Value: s.File(name, Krb5ConfFile)}}
}
