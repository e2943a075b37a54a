package servertest_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

func verifiedBy(ca secretclassv1alpha1.CACert) *secretclassv1alpha1.TLS {
	return &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
		Server: &secretclassv1alpha1.ServerVerification{CACert: ca}}}
}

func TestS3ConnectionAdmission(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	conn := func(name string, spec s3v1alpha1.ConnectionSpec) *s3v1alpha1.S3Connection {
		return &s3v1alpha1.S3Connection{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	}
	checkAdmission(t, t.Context(), cp.Client, []admission{
		{name: "complete", obj: conn("complete", s3v1alpha1.ConnectionSpec{
			Host: "minio.storage.svc.cluster.local", Port: ptr.To[int32](9000), AccessStyle: s3v1alpha1.AccessStylePath,
			Region:      "eu-central-1",
			Credentials: &secretclassv1alpha1.Volume{SecretClass: "s3-credentials", Scope: &secretclassv1alpha1.Scope{Pod: true, Services: []string{"minio"}}},
			TLS:         verifiedBy(secretclassv1alpha1.CACert{SecretClass: ptr.To("tls")}),
		})},
		{name: "web PKI", obj: conn("web-pki", s3v1alpha1.ConnectionSpec{
			Host: "s3.amazonaws.com", TLS: verifiedBy(secretclassv1alpha1.CACert{WebPKI: &secretclassv1alpha1.WebPKI{}})})},
		{name: "no verification", obj: conn("unverified", s3v1alpha1.ConnectionSpec{
			Host: "s3.local", TLS: &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{None: &secretclassv1alpha1.NoVerification{}}}})},
		{name: "a URL as host", obj: conn("url", s3v1alpha1.ConnectionSpec{Host: "https://s3.local"}),
			refused: []string{"spec.host"}, text: "without scheme, port or path"},
		{name: "a port in the host", obj: conn("hostport", s3v1alpha1.ConnectionSpec{Host: "minio:9000"}),
			refused: []string{"spec.host"}, text: "without scheme, port or path"},
		{name: "port out of range", obj: conn("port", s3v1alpha1.ConnectionSpec{Host: "s3.local", Port: ptr.To[int32](0)}),
			refused: []string{"spec.port"}, text: "greater than or equal to 1"},
		{name: "unknown access style", obj: conn("style", s3v1alpha1.ConnectionSpec{Host: "s3.local", AccessStyle: "path"}),
			refused: []string{"spec.accessStyle"}, text: "Unsupported value"},
		{name: "both verifications", obj: conn("both", s3v1alpha1.ConnectionSpec{Host: "s3.local", TLS: &secretclassv1alpha1.TLS{
			Verification: &secretclassv1alpha1.TLSVerification{None: &secretclassv1alpha1.NoVerification{},
				Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{WebPKI: &secretclassv1alpha1.WebPKI{}}}}}}),
			refused: []string{"spec.tls.verification"}, text: "set exactly one of none and server"},
		{name: "no CA source", obj: conn("no-ca", s3v1alpha1.ConnectionSpec{Host: "s3.local", TLS: verifiedBy(secretclassv1alpha1.CACert{})}),
			refused: []string{"spec.tls.verification.server.caCert"}, text: "set exactly one of webPki and secretClass"},
		{name: "two CA sources", obj: conn("two-ca", s3v1alpha1.ConnectionSpec{Host: "s3.local",
			TLS: verifiedBy(secretclassv1alpha1.CACert{WebPKI: &secretclassv1alpha1.WebPKI{}, SecretClass: ptr.To("tls")})}),
			refused: []string{"spec.tls.verification.server.caCert"}, text: "set exactly one of webPki and secretClass"},
		{name: "empty credentials class", obj: conn("creds", s3v1alpha1.ConnectionSpec{Host: "s3.local", Credentials: &secretclassv1alpha1.Volume{}}),
			refused: []string{"spec.credentials.secretClass"}, text: "at least 1 chars long"},
	})
}

func TestS3BucketAdmission(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	bucket := func(name string, spec s3v1alpha1.BucketSpec) *s3v1alpha1.S3Bucket {
		return &s3v1alpha1.S3Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	}
	inline := &s3v1alpha1.ConnectionSpec{Host: "s3.local"}
	checkAdmission(t, t.Context(), cp.Client, []admission{
		{name: "connection by reference", obj: bucket("by-ref", s3v1alpha1.BucketSpec{
			BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}})},
		{name: "connection inline", obj: bucket("inline", s3v1alpha1.BucketSpec{
			BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Inline: inline}})},
		{name: "connection both inline and by reference", obj: bucket("both", s3v1alpha1.BucketSpec{
			BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Inline: inline, Reference: ptr.To("minio")}}),
			refused: []string{"spec.connection"}, text: "set exactly one of inline and reference"},
		{name: "no connection", obj: bucket("none", s3v1alpha1.BucketSpec{BucketName: "warehouse"}),
			refused: []string{"spec.connection"}, text: "set exactly one of inline and reference"},
		{name: "empty reference", obj: bucket("empty-ref", s3v1alpha1.BucketSpec{
			BucketName: "warehouse", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("")}}),
			refused: []string{"spec.connection.reference"}, text: "at least 1 chars long"},
		{name: "bucket name with capitals", obj: bucket("caps", s3v1alpha1.BucketSpec{
			BucketName: "Warehouse", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}}),
			refused: []string{"spec.bucketName"}, text: "should match"},
	})
}
