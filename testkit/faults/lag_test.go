package faults_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/opkit-dev/opkit/testkit/faults"
)

// While held, an object the client writes reads as it did before the
// write, created objects as missing, until Release; other kinds and reads
// before Hold are not touched.
func TestLagServesReadsFromBeforeTheClientsWrite(t *testing.T) {
	ctx := t.Context()
	lag := faults.NewLag(schema.GroupKind{Kind: "ConfigMap"})
	c := lag.Client(fake.NewClientBuilder().Build())
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}, Data: map[string]string{"k": "1"}}
	require.NoError(t, c.Create(ctx, cm))
	got := &corev1.ConfigMap{}
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(cm), got))
	require.True(t, apierrors.IsNotFound(c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "b"}, &corev1.ConfigMap{})))

	lag.Hold()
	got.Data["k"] = "2"
	require.NoError(t, c.Update(ctx, got))
	require.NoError(t, c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b"}}))
	require.NoError(t, c.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}}))

	stale := &corev1.ConfigMap{}
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(cm), stale))
	require.Equal(t, "1", stale.Data["k"], "an updated object reads as before the update")
	require.True(t, apierrors.IsNotFound(c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "b"}, &corev1.ConfigMap{})),
		"a created object reads as missing")
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "s"}, &corev1.Secret{}), "other kinds do not lag")
	require.Equal(t, 2, lag.Served())

	lag.Release()
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(cm), stale))
	require.Equal(t, "2", stale.Data["k"])
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "b"}, &corev1.ConfigMap{}))
	require.Equal(t, 2, lag.Served())
}
