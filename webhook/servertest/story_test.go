package servertest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	listenerv1alpha1 "github.com/opkit-dev/opkit/api/listener/v1alpha1"
	s3v1alpha1 "github.com/opkit-dev/opkit/api/s3/v1alpha1"
	secretclassv1alpha1 "github.com/opkit-dev/opkit/api/secretclass/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// TestProductWithBucketTLSAndExternalListener is the whole story: a user
// creates an S3 connection and bucket, then a Lakehouse that uses the
// bucket by reference, serves TLS from a secret class and exposes its
// gateways on an external-stable listener. The webhook admits it, the
// reconciler builds it, and the pods its StatefulSets would create pass
// the restricted Pod Security profile.
func TestProductWithBucketTLSAndExternalListener(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	op := startOperator(t, cp, ns, false)

	require.NoError(t, cp.Client.Create(t.Context(), &s3v1alpha1.S3Connection{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "minio"},
		Spec: s3v1alpha1.ConnectionSpec{Host: "minio.storage", Port: ptr.To[int32](9000), AccessStyle: s3v1alpha1.AccessStylePath,
			Credentials: &secretclassv1alpha1.Volume{SecretClass: "minio-credentials"}},
	}))
	require.NoError(t, cp.Client.Create(t.Context(), &s3v1alpha1.S3Bucket{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "warehouse"},
		Spec:       s3v1alpha1.BucketSpec{BucketName: "lake", Connection: s3v1alpha1.ConnectionSource{Reference: ptr.To("minio")}},
	}))
	cr := withTLS(newLakehouse(ns, "prod", "server", "gateway"))
	cr.Spec.Warehouse = &s3v1alpha1.BucketSource{Reference: ptr.To("warehouse")}
	cr.Spec.Listeners = map[string]listenerv1alpha1.Class{"gateway": listenerv1alpha1.ExternalStable}
	require.NoError(t, cp.Client.Create(t.Context(), cr))

	server := waitStatefulSet(t, op, ns, "prod-server-default")
	gateway := waitStatefulSet(t, op, ns, "prod-gateway-default")
	require.ElementsMatch(t, []string{"config", "tls", "s3-credentials"}, volumeNames(server), "the server's volumes")
	require.ElementsMatch(t, []string{"config", "tls", "listener"}, volumeNames(gateway), "the gateway's volumes")

	cm := &corev1.ConfigMap{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "prod-server-default"}, cm))
	require.Contains(t, cm.Data["core-site.xml"], "http://minio.storage:9000", "the bucket's endpoint reaches the product's config")
	require.NotContains(t, cm.Data["core-site.xml"], "secretKey", "no credential is written into the ConfigMap")

	svc := &corev1.Service{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "prod-gateway-default"}, svc))
	require.Equal(t, corev1.ServiceTypeLoadBalancer, svc.Spec.Type, "external-stable is a load balancer")
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "prod-server-default"}, svc))
	require.Equal(t, corev1.ServiceTypeClusterIP, svc.Spec.Type, "a role with no listener class stays inside the cluster")

	for _, sts := range []*appsv1.StatefulSet{server, gateway} {
		pod := &corev1.Pod{ObjectMeta: *sts.Spec.Template.ObjectMeta.DeepCopy(), Spec: *sts.Spec.Template.Spec.DeepCopy()}
		pod.Name, pod.Namespace = sts.Name+"-0", ns
		require.NoError(t, cp.Client.Create(t.Context(), pod, client.DryRunAll),
			"a pod of %s under the restricted profile", sts.Name)
	}
}

// waitStatefulSet waits until the reconciler applied the StatefulSet and
// returns it as the API server stores it.
func waitStatefulSet(t *testing.T, op *operator, ns, name string) *appsv1.StatefulSet {
	t.Helper()
	sts, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*appsv1.StatefulSet, bool, error) {
		s := &appsv1.StatefulSet{}
		err := op.client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s)
		return s, err == nil, client.IgnoreNotFound(err)
	}, time.Minute)
	require.NoError(t, err, "StatefulSet %s", name)
	return sts
}

func volumeNames(sts *appsv1.StatefulSet) []string {
	var out []string
	for _, v := range sts.Spec.Template.Spec.Volumes {
		out = append(out, v.Name)
	}
	return slices.Sorted(slices.Values(out))
}
