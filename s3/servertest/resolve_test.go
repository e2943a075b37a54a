package servertest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/opkit-dev/opkit/api/failure"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// TestResolveByReferenceWaitsForWhatDoesNotExistYet walks a user creating
// the objects in the wrong order: the product's bucket reference first,
// then the bucket, then its connection. Until each exists the resolution
// waits (a requeue naming the reference), then it succeeds.
func TestResolveByReferenceWaitsForWhatDoesNotExistYet(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	src := s3v1alpha1.BucketSource{Reference: ptr.To("warehouse")}
	opts := s3.ResolveOptions{NotFoundRetry: 3 * time.Second}

	_, err := s3.Resolve(t.Context(), cp.Client, ns, src, "spec.warehouse", opts)
	requireWaiting(t, err, "spec.warehouse.reference", "S3Bucket", 3*time.Second)

	require.NoError(t, cp.Client.Create(t.Context(), &s3v1alpha1.S3Bucket{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "warehouse"},
		Spec:       s3v1alpha1.BucketSpec{BucketName: "lake", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}},
	}))
	_, err = s3.Resolve(t.Context(), cp.Client, ns, src, "spec.warehouse", opts)
	requireWaiting(t, err, "S3Bucket "+ns+"/warehouse spec.connection.reference", "S3Connection", 3*time.Second)

	conn := s3v1alpha1.ConnectionSpec{Host: "minio.storage", Port: ptr.To[int32](9000), AccessStyle: s3v1alpha1.AccessStylePath,
		Credentials: &secretclassv1alpha1.Volume{SecretClass: "minio-credentials"}}
	require.NoError(t, cp.Client.Create(t.Context(), &s3v1alpha1.S3Connection{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "minio"}, Spec: conn}))
	got, err := s3.Resolve(t.Context(), cp.Client, ns, src, "spec.warehouse", opts)
	require.NoError(t, err)
	want := &s3.Bucket{Name: "lake", Connection: conn, Field: "S3Bucket " + ns + "/warehouse spec",
		ConnectionField: "S3Connection " + ns + "/minio spec"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bucket (-want +got):\n%s", diff)
	}
}

func requireWaiting(t *testing.T, err error, field, kind string, after time.Duration) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, failure.ErrRequeue), "a missing %s is waited for, not failed: %v", kind, err)
	require.False(t, errors.Is(err, failure.ErrInvalid), "a missing %s is not the user's error yet: %v", kind, err)
	require.True(t, apierrors.IsNotFound(err), "the API server's answer stays in the chain: %v", err)
	require.Equal(t, after, failure.Delay(err))
	var nf *s3.NotFoundError
	require.True(t, errors.As(err, &nf))
	require.Equal(t, kind, nf.Kind)
	require.Equal(t, field, failure.FieldOf(err))
}

// TestResolveClassifiesReadErrors: a 429 while reading the bucket is a
// rate-limit error, neither invalid input nor a wait.
func TestResolveClassifiesReadErrors(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 1, Rules: []faults.Rule{
		{Verbs: []string{"get"}, Resources: []string{"s3buckets.s3.opkit.dev"}, Fault: faults.TooManyRequests, Rate: 1},
	}})
	require.NoError(t, err)
	_, err = s3.Resolve(t.Context(), inj.Client(cp.Client), ns, s3v1alpha1.BucketSource{Reference: ptr.To("warehouse")}, "spec.warehouse", s3.ResolveOptions{})
	require.True(t, errors.Is(err, failure.ErrRateLimited), "got %v", err)
	require.False(t, errors.Is(err, failure.ErrRequeue))
	require.True(t, apierrors.IsTooManyRequests(err))
}
