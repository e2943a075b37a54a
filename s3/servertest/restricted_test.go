package servertest_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/s3"
	"github.com/opkit-dev/opkit/secretvolume"
	"github.com/opkit-dev/opkit/testkit"
)

// TestWiredBucketAcceptedUnderRestrictedPodSecurity: the volumes Wire adds
// for credentials and a CA, and the start command with the exports, in a
// StatefulSet a restricted namespace admits.
func TestWiredBucketAcceptedUnderRestrictedPodSecurity(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	bucket, err := s3.Resolve(t.Context(), nil, ns, s3v1alpha1.BucketSource{Inline: &s3v1alpha1.BucketSpec{
		BucketName: "lake", Connection: s3v1alpha1.ConnectionSource{Inline: &s3v1alpha1.ConnectionSpec{
			Host: "minio.storage", Credentials: &secretclassv1alpha1.Volume{SecretClass: "minio-credentials"},
			TLS: &secretclassv1alpha1.TLS{Verification: &secretclassv1alpha1.TLSVerification{Server: &secretclassv1alpha1.ServerVerification{
				CACert: secretclassv1alpha1.CACert{SecretClass: ptr.To("tls")}}}},
		}}}}, "spec.warehouse", s3.ResolveOptions{})
	require.NoError(t, err)
	set := secretvolume.New(secretvolume.Options{})
	w := bucket.Wire(set, s3.WireOptions{})
	require.Len(t, set.Names(), 2)
	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "metastore", RoleGroup: "default"}
	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "hive",
		Command: []string{"/bin/sh", "-c", w.Exports[0] + " && " + w.Exports[1] + " && exec bin/start-metastore"}}).
		WithImage("registry.example/hive:4.0.1", corev1.PullIfNotPresent).
		WithInjectors(set).Build()
	require.NoError(t, err)
	require.NoError(t, cp.Client.Create(t.Context(), sts, client.DryRunAll))
}
