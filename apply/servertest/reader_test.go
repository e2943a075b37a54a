package servertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/apply"
)

// TestStaleClientIsConfirmedByReader stands in for a manager's cached
// client that lags behind: the engine must not mistake the lag for a
// foreign edit (no write), yet still catch a real edit.
func TestStaleClientIsConfirmedByReader(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	cm := configMap(f.ns, "cm", map[string]string{"k": "v"}, nil)
	f.applyUntilReady(cm)

	cached := interceptor.NewClient(f.c, interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if err := c.Get(ctx, key, obj, opts...); err != nil {
				return err
			}
			obj.SetResourceVersion("1") // older than the version recorded
			return nil
		},
	})
	r, err := apply.New(name, cached, apply.Options{Reader: f.c})
	require.NoError(t, err)

	before := f.counter.Snapshot()
	res, err := r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	require.Equal(t, 0, f.counter.Snapshot().Sub(before).Writes(), "cache lag taken for drift")

	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	live.Data["k"] = "edited"
	require.NoError(t, f.c.Update(t.Context(), live))
	before = f.counter.Snapshot()
	_, err = r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.NoError(t, err)
	require.Equal(t, 1, f.counter.Snapshot().Sub(before).Writes(), "a real edit was not reverted")
}
