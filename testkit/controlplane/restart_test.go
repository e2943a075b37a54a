package controlplane_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// A restarted API server serves the same data to the same clients: an
// object written before the restart is read after it through the client
// made before it, and writes work again.
func TestRestartAPIServerKeepsDataAndClients(t *testing.T) {
	cp := start(t, controlplane.Options{})
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	before := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "before"}, Data: map[string]string{"k": "v"}}
	require.NoError(t, cp.Client.Create(ctx, before))

	w, err := cp.Client.Watch(ctx, &corev1.ConfigMapList{}, client.InNamespace(ns))
	require.NoError(t, err)
	defer w.Stop()

	require.NoError(t, cp.RestartAPIServer(ctx))

	// The watch opened before the restart ends with the old process.
	_, err = testkit.WaitFor(ctx, func(context.Context) (bool, bool, error) {
		select {
		case _, ok := <-w.ResultChan():
			return !ok, !ok, nil
		default:
			return false, false, nil
		}
	}, time.Minute)
	require.NoError(t, err, "the watch outlived the API server")

	got := &corev1.ConfigMap{}
	require.NoError(t, cp.Client.Get(ctx, client.ObjectKeyFromObject(before), got))
	require.Equal(t, before.UID, got.UID, "the same object, from etcd")
	require.Equal(t, map[string]string{"k": "v"}, got.Data)
	require.NoError(t, cp.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "after"}}))
}
