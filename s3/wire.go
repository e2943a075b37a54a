package s3

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/opkit-dev/opkit/api/failure"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	"github.com/opkit-dev/opkit/secretvolume"
)

// Defaults of WireOptions.
const (
	// DefaultCredentialsVolume names the volume of the credentials.
	DefaultCredentialsVolume = "s3-credentials"
	// DefaultCAVolume names the volume of the CA certificate.
	DefaultCAVolume = "s3-ca"
	// DefaultRegion is the signing region of a connection that names none.
	DefaultRegion = "us-east-1"
)

// The environment variables the exports set: the names every S3 SDK
// reads.
const (
	EnvAccessKeyID     = "AWS_ACCESS_KEY_ID"
	EnvSecretAccessKey = "AWS_SECRET_ACCESS_KEY"
)

// WireOptions names the volumes Wire adds. The zero value uses the
// defaults.
type WireOptions struct {
	// CredentialsVolume names the credentials volume. Empty means
	// DefaultCredentialsVolume.
	CredentialsVolume string
	// CAVolume names the CA volume. Empty means DefaultCAVolume.
	CAVolume string
	// CAFormat is the format of the CA volume: secretvolume.FormatTLSPEM
	// (the default) gives CAFile, secretvolume.FormatTLSPKCS12 a trust
	// store a JVM reads.
	CAFormat secretvolume.Format
}

// Wiring is what a product writes for a bucket.
type Wiring struct {
	// URL is the bucket's S3A URL, "s3a://<bucket>/".
	URL string
	// Endpoint is the connection's URL, "http(s)://host:port".
	Endpoint string
	// HadoopProperties are the S3A properties of the connection, for
	// core-site.xml. The credentials appear as ${env.…} references to the
	// variables Exports sets, never as values.
	HadoopProperties map[string]string
	// Exports are shell commands that set EnvAccessKeyID and
	// EnvSecretAccessKey from the mounted credential files, for the start
	// command; none when the connection is anonymous.
	Exports []string
	// CAFile is the mounted CA certificate or trust store; empty unless
	// the server is checked against a secret class's CA.
	CAFile string
}

// Wire adds the bucket's secret volumes to set (its credentials, and the CA
// when the connection checks the server against a secret class) and
// returns what the product writes.
func (b *Bucket) Wire(set *secretvolume.Set, opts WireOptions) Wiring {
	c := &b.Connection
	w := Wiring{
		URL:      "s3a://" + b.Name + "/",
		Endpoint: Endpoint(c),
		HadoopProperties: map[string]string{
			"fs.s3a.endpoint":                 Endpoint(c),
			"fs.s3a.endpoint.region":          region(c),
			"fs.s3a.path.style.access":        strconv.FormatBool(c.AccessStyle == s3v1alpha1.AccessStylePath),
			"fs.s3a.connection.ssl.enabled":   strconv.FormatBool(c.TLS.Enabled()),
			"fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider",
		},
	}
	if c.Credentials != nil {
		vol := opts.CredentialsVolume
		if vol == "" {
			vol = DefaultCredentialsVolume
		}
		set.Add(secretvolume.Credentials(vol, *c.Credentials).From(failure.AuthorUser, b.ConnectionField+".credentials"))
		maps.Copy(w.HadoopProperties, map[string]string{
			"fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
			"fs.s3a.access.key":               "${env." + EnvAccessKeyID + "}",
			"fs.s3a.secret.key":               "${env." + EnvSecretAccessKey + "}",
		})
		w.Exports = []string{
			fmt.Sprintf(`export %s="$(cat %s)"`, EnvAccessKeyID, set.File(vol, s3v1alpha1.AccessKeyFile)),
			fmt.Sprintf(`export %s="$(cat %s)"`, EnvSecretAccessKey, set.File(vol, s3v1alpha1.SecretKeyFile)),
		}
	}
	if class := c.TLS.CASecretClass(); class != "" {
		vol := opts.CAVolume
		if vol == "" {
			vol = DefaultCAVolume
		}
		req := secretvolume.TLS(vol, class, nil).From(failure.AuthorUser, b.ConnectionField+".tls.verification.server.caCert.secretClass")
		w.CAFile = set.File(vol, secretvolume.CACertFile)
		if opts.CAFormat == secretvolume.FormatTLSPKCS12 {
			req = req.WithFormat(secretvolume.FormatTLSPKCS12)
			w.CAFile = set.File(vol, secretvolume.TruststoreFile)
		}
		set.Add(req)
	}
	return w
}

// Endpoint returns the connection's URL: https with TLS, http without,
// with the port stated or the scheme's default.
func Endpoint(c *s3v1alpha1.ConnectionSpec) string {
	scheme, port := "http", int32(80)
	if c.TLS.Enabled() {
		scheme, port = "https", 443
	}
	if c.Port != nil {
		port = *c.Port
	}
	return fmt.Sprintf("%s://%s:%d", scheme, c.Host, port)
}

func region(c *s3v1alpha1.ConnectionSpec) string {
	if c.Region != "" {
		return c.Region
	}
	return DefaultRegion
}
