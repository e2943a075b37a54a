package v1alpha1

// Driver is the CSI driver of the secret operator, and the storage class
// of the ephemeral volumes that ask it for secrets.
const Driver = "secrets.opkit.dev"

// Annotations of an ephemeral volume's claim template that the secret
// operator reads. Each is Driver, "/", and a name.
const (
	// AnnotationClass names the secret class.
	AnnotationClass = Driver + "/class"
	// AnnotationScope lists the scopes, comma-separated: "pod", "node",
	// "service=<name>", "listener-volume=<name>".
	AnnotationScope = Driver + "/scope"
	// AnnotationFormat names the file format of the secret: FormatTLSPEM,
	// FormatTLSPKCS12 or FormatKerberos. Unset leaves it to the class.
	AnnotationFormat = Driver + "/format"
	// AnnotationKerberosServiceNames lists the Kerberos service names of
	// the principals in a keytab, comma-separated.
	AnnotationKerberosServiceNames = Driver + "/kerberosServiceNames"
	// AnnotationPKCS12Password is the password of a PKCS#12 key store.
	AnnotationPKCS12Password = Driver + "/tlsPKCS12Password"
)

// Secret formats (AnnotationFormat values).
const (
	// FormatTLSPEM is ca.crt, tls.crt and tls.key in PEM.
	FormatTLSPEM = "tls-pem"
	// FormatTLSPKCS12 is keystore.p12 and truststore.p12.
	FormatTLSPKCS12 = "tls-p12"
	// FormatKerberos is keytab and krb5.conf.
	FormatKerberos = "kerberos"
)

// Scope names (AnnotationScope entries).
const (
	// ScopePod issues for the pod's DNS names.
	ScopePod = "pod"
	// ScopeNode issues for the pod's node.
	ScopeNode = "node"
	// ScopeServicePrefix, followed by a Service name, issues for that
	// Service.
	ScopeServicePrefix = "service="
	// ScopeListenerVolumePrefix, followed by a volume name, issues for the
	// addresses of that listener volume.
	ScopeListenerVolumePrefix = "listener-volume="
)
