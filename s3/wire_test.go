package s3_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/secretvolume"
)

func caFrom(class string) *secretclassv1alpha1.TLS {
	return &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
		Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To(class)}}}}
}

func TestWireAnonymousPlainConnection(t *testing.T) {
	b := &s3.Bucket{Name: "warehouse", Connection: s3v1alpha1.ConnectionSpec{Host: "minio", AccessStyle: s3v1alpha1.AccessStylePath}}
	set := secretvolume.New(secretvolume.Options{})
	got := b.Wire(set, s3.WireOptions{})
	want := s3.Wiring{
		URL: "s3a://warehouse/", Endpoint: "http://minio:80",
		HadoopProperties: map[string]string{
			"fs.s3a.endpoint": "http://minio:80", "fs.s3a.endpoint.region": "us-east-1",
			"fs.s3a.path.style.access": "true", "fs.s3a.connection.ssl.enabled": "false",
			"fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.AnonymousAWSCredentialsProvider",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wiring (-want +got):\n%s", diff)
	}
	if len(set.Names()) != 0 {
		t.Errorf("an anonymous plain connection needs no secret, got volumes %v", set.Names())
	}
}

func TestWireCredentialsAndCA(t *testing.T) {
	b := &s3.Bucket{Name: "warehouse", ConnectionField: "S3Connection data/minio spec", Connection: s3v1alpha1.ConnectionSpec{
		Host: "minio.storage", Port: ptr.To[int32](9443), Region: "eu-central-1",
		Credentials: &secretclassv1alpha1.Volume{SecretClass: "minio-credentials"},
		TLS:         caFrom("tls"),
	}}
	set := secretvolume.New(secretvolume.Options{})
	got := b.Wire(set, s3.WireOptions{CAFormat: secretvolume.FormatTLSPKCS12})
	want := s3.Wiring{
		URL: "s3a://warehouse/", Endpoint: "https://minio.storage:9443",
		HadoopProperties: map[string]string{
			"fs.s3a.endpoint": "https://minio.storage:9443", "fs.s3a.endpoint.region": "eu-central-1",
			"fs.s3a.path.style.access": "false", "fs.s3a.connection.ssl.enabled": "true",
			"fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
			"fs.s3a.access.key":               "${env.AWS_ACCESS_KEY_ID}",
			"fs.s3a.secret.key":               "${env.AWS_SECRET_ACCESS_KEY}",
		},
		Exports: []string{
			`export AWS_ACCESS_KEY_ID="$(cat /opkit/secret/s3-credentials/accessKey)"`,
			`export AWS_SECRET_ACCESS_KEY="$(cat /opkit/secret/s3-credentials/secretKey)"`,
		},
		CAFile: "/opkit/secret/s3-ca/truststore.p12",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wiring (-want +got):\n%s", diff)
	}
	vols, err := set.Volumes()
	if err != nil {
		t.Fatal(err)
	}
	var classes []string
	for _, v := range vols {
		a := v.Ephemeral.VolumeClaimTemplate.Annotations
		classes = append(classes, v.Name+"="+a[secretclassv1alpha1.AnnotationClass]+"/"+a[secretclassv1alpha1.AnnotationFormat])
	}
	if diff := cmp.Diff([]string{"s3-credentials=minio-credentials/", "s3-ca=tls/tls-p12"}, classes); diff != "" {
		t.Errorf("volumes (-want +got):\n%s", diff)
	}
}

func TestWireBlamesAnEmptyClassOnTheConnection(t *testing.T) {
	b := &s3.Bucket{Name: "warehouse", ConnectionField: "spec.warehouse.inline.connection.inline", Connection: s3v1alpha1.ConnectionSpec{
		Host: "minio", Credentials: &secretclassv1alpha1.Volume{}}}
	set := secretvolume.New(secretvolume.Options{})
	b.Wire(set, s3.WireOptions{})
	err := set.Validate()
	if err == nil || err.Error() != "spec.warehouse.inline.connection.inline.credentials.secretClass: the secret class is empty" {
		t.Errorf("got %v", err)
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct {
		conn s3v1alpha1.ConnectionSpec
		want string
	}{
		{s3v1alpha1.ConnectionSpec{Host: "s3"}, "http://s3:80"},
		{s3v1alpha1.ConnectionSpec{Host: "s3", TLS: &secretclassv1alpha1.TLS{}}, "https://s3:443"},
		{s3v1alpha1.ConnectionSpec{Host: "s3", TLS: caFrom("tls"), Port: ptr.To[int32](9000)}, "https://s3:9000"},
	}
	for _, tt := range tests {
		if got := s3.Endpoint(&tt.conn); got != tt.want {
			t.Errorf("Endpoint(%+v) = %q, want %q", tt.conn, got, tt.want)
		}
	}
}
