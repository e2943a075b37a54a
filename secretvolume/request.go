package secretvolume

import (
	"slices"

	"github.com/opkit-dev/opkit/api/failure"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// Format is the file format a secret is delivered in.
type Format string

// The formats.
const (
	// FormatDefault leaves the format to the secret class.
	FormatDefault Format = ""
	// FormatTLSPEM delivers CACertFile, TLSCertFile and TLSKeyFile.
	FormatTLSPEM Format = secretclassv1alpha1.FormatTLSPEM
	// FormatTLSPKCS12 delivers KeystoreFile and TruststoreFile.
	FormatTLSPKCS12 Format = secretclassv1alpha1.FormatTLSPKCS12
	// FormatKerberos delivers KeytabFile and Krb5ConfFile.
	FormatKerberos Format = secretclassv1alpha1.FormatKerberos
)

// Files of the formats, relative to a volume's mount path (see Set.File).
const (
	// CACertFile is the CA certificate (PEM).
	CACertFile = "ca.crt"
	// TLSCertFile is the pod's certificate (PEM).
	TLSCertFile = "tls.crt"
	// TLSKeyFile is the pod's private key (PEM).
	TLSKeyFile = "tls.key"
	// KeystoreFile is the pod's key store (PKCS#12).
	KeystoreFile = "keystore.p12"
	// TruststoreFile is the trust store with the CA (PKCS#12).
	TruststoreFile = "truststore.p12"
	// KeytabFile is the Kerberos keytab.
	KeytabFile = "keytab"
	// Krb5ConfFile is the Kerberos client configuration.
	Krb5ConfFile = "krb5.conf"
)

// Request is one secret volume a pod asks for. Build it with TLS,
// Kerberos or Credentials and refine it with the methods, which return
// a changed copy.
type Request struct {
	// Name is the volume's name, a DNS label; the volume is mounted at
	// Set.MountPath(Name).
	Name string
	// Class is the secret class.
	Class string
	// Scope says which identities the secret is issued for; nil means the
	// pod.
	Scope *secretclassv1alpha1.Scope
	// Format is the file format.
	Format Format
	// KerberosServiceNames are the service names of the keytab's
	// principals ("HTTP", "nn", …), for FormatKerberos.
	KerberosServiceNames []string
	// PKCS12Password protects a FormatTLSPKCS12 key store; empty means the
	// operator's default.
	PKCS12Password string
	// Containers mount the volume; none means the main container.
	Containers []string
	// Author and Field say where the request was written, so an error
	// names that field: the class's own field for TLS and Kerberos (such
	// as "spec.tls.serverSecretClass"), the secret-class volume's field for
	// Credentials (its class and scope are members of it). Zero means the
	// operator's code, named after the volume.
	Author failure.Author
	Field  string

	// fromVolume says Field names a secretclassv1alpha1.Volume.
	fromVolume bool
}

// TLS asks for certificates of class for scope (nil means the pod), in
// PEM.
func TLS(name, class string, scope *secretclassv1alpha1.Scope) Request {
	return Request{Name: name, Class: class, Scope: scope.DeepCopy(), Format: FormatTLSPEM}
}

// Kerberos asks for a keytab of class with a principal per service name.
func Kerberos(name, class string, serviceNames ...string) Request {
	return Request{Name: name, Class: class, Format: FormatKerberos, KerberosServiceNames: slices.Clone(serviceNames)}
}

// Credentials asks for the secret of a class as it is (user names,
// passwords, keys: whatever files the class holds), such as an S3
// connection's credentials.
func Credentials(name string, v secretclassv1alpha1.Volume) Request {
	return Request{Name: name, Class: v.SecretClass, Scope: v.Scope.DeepCopy(), fromVolume: true}
}

// WithFormat returns r with the format f.
func (r Request) WithFormat(f Format) Request {
	r.Format = f
	return r
}

// WithPKCS12Password returns r delivered as a PKCS#12 key store with the
// password.
func (r Request) WithPKCS12Password(password string) Request {
	r.Format, r.PKCS12Password = FormatTLSPKCS12, password
	return r
}

// MountedIn returns r mounted in the named containers instead of the main
// container.
func (r Request) MountedIn(containers ...string) Request {
	r.Containers = slices.Clone(containers)
	return r
}

// From returns r blamed on author's field when it cannot be honoured.
func (r Request) From(author failure.Author, field string) Request {
	r.Author, r.Field = author, field
	return r
}

// classField returns where r's class was written.
func (r Request) classField() string {
	if r.fromVolume {
		return r.field("secretClass")
	}
	return r.field("")
}

// scopeField returns where member of r's scope was written: in the
// volume's field, or (for a scope the operator's code passed) in the
// operator's request.
func (r Request) scopeField(member string) string {
	if r.fromVolume {
		return r.field("scope." + member)
	}
	return Request{Name: r.Name}.field("scope." + member)
}

// field returns where member of r was written, for errors.
func (r Request) field(member string) string {
	if r.Field != "" {
		if member == "" {
			return r.Field
		}
		return r.Field + "." + member
	}
	f := "secretvolume[" + r.Name + "]"
	if member != "" {
		f += "." + member
	}
	return f
}

func (r Request) author() failure.Author {
	if r.Field == "" || r.Author == failure.AuthorUnknown {
		return failure.AuthorOperator
	}
	return r.Author
}
