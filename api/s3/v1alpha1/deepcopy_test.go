package v1alpha1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
)

// fullBucket returns an S3Bucket with every pointer and slice set, afresh
// on each call.
func fullBucket() *v1alpha1.S3Bucket {
	b := &v1alpha1.S3Bucket{Spec: v1alpha1.BucketSpec{BucketName: "warehouse", Connection: v1alpha1.ConnectionSource{
		Reference: ptr.To("minio"),
		Inline: &v1alpha1.ConnectionSpec{Host: "s3.local", Port: ptr.To[int32](9000),
			Credentials: &secretclassv1alpha1.Volume{SecretClass: "creds", Scope: &secretclassv1alpha1.Scope{Services: []string{"minio"}}},
			TLS: &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{
				Server: &secretclassv1alpha1.ServerVerification{CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To("tls")}}}}},
	}}}
	b.Name = "warehouse"
	return b
}

// TestDeepCopyIsIndependent changes every reachable member of a copy and
// checks the original is untouched.
func TestDeepCopyIsIndependent(t *testing.T) {
	orig := fullBucket()
	cp := orig.DeepCopy()
	c := cp.Spec.Connection
	*c.Reference = "other"
	*c.Inline.Port = 1
	c.Inline.Credentials.Scope.Services[0] = "other"
	*c.Inline.TLS.Verification.Server.CACert.SecretClass = "other"
	if diff := cmp.Diff(fullBucket(), orig); diff != "" {
		t.Errorf("changing the copy changed the original (-want +got):\n%s", diff)
	}
}
