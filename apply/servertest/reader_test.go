package servertest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit/faults"
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

// A pass never writes on the strength of a read that predates its own
// previous write: an edit of a stated label, reverted while the client
// (a cache) still shows the edited version, costs one write however many
// passes run before the cache catches up.
func TestPassesOnALaggingCacheDoNotWriteAgain(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	cm := configMap(f.ns, "labelled", map[string]string{"k": "v"}, nil)
	cm.Labels = map[string]string{"tier": "web"}
	f.applyUntilReady(cm)
	lag := faults.NewLag(schemaGK("", "ConfigMap"))
	r, err := apply.New(name, lag.Client(f.c), apply.Options{Reader: f.c})
	require.NoError(t, err)

	edit := configMap(f.ns, "labelled", nil, nil)
	require.NoError(t, f.c.Patch(t.Context(), edit, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"tier":"tampered"}}}`))))
	lag.Hold()
	for pass, want := range []int{1, 0, 0, 0} {
		before := f.counter.Snapshot()
		_, err := r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
		require.NoError(t, err)
		require.Equal(t, want, f.counter.Snapshot().Sub(before).Writes(), "pass %d after the edit", pass+1)
	}
	require.Equal(t, 3, lag.Served(), "the passes after the revert read the edited version")
	lag.Release()
	before := f.counter.Snapshot()
	_, err = r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.NoError(t, err)
	require.Equal(t, 0, f.counter.Snapshot().Sub(before).Writes(), "the pass after the cache caught up")
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	require.Equal(t, "web", live.Labels["tier"])
}

// An object the engine created that the client (a cache) does not show
// yet is confirmed through the reader, not created again.
func TestCreateTheCacheHasNotSeenIsNotMadeAgain(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	lag := faults.NewLag(schemaGK("", "ConfigMap"))
	lag.Hold()
	r, err := apply.New(name, lag.Client(f.c), apply.Options{Reader: f.c})
	require.NoError(t, err)
	cm := configMap(f.ns, "new", map[string]string{"k": "v"}, nil)
	for pass, want := range []int{1, 0, 0} {
		before := f.counter.Snapshot()
		res, err := r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
		require.NoError(t, err)
		require.True(t, res.Done)
		require.Equal(t, want, f.counter.Snapshot().Sub(before).Writes(), "pass %d", pass+1)
	}
	require.Equal(t, 2, lag.Served(), "the passes after the create read it as missing")
}
