package servertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// managed is the README's setup: a manager whose cache ManagerOptions
// configured, its client for the engine and its API reader to confirm.
type managed struct {
	ns      string
	counter *apicount.Counter
	engine  *apply.Engine
	// chunkEngine is engine without Options.Kinds.
	chunkEngine *apply.Engine
	// raw is an uncached client on the same counted transport.
	raw client.Client
	// cached is the manager's client.
	cached client.Client
	owner  apply.Owner
	inv    inventory.Inventory
}

func newManaged(tb testing.TB, ownerID string, opts apply.Options) *managed {
	tb.Helper()
	cp := env.Require(tb)
	m := &managed{ns: testkit.Namespace(tb, cp.Client), counter: apicount.New()}
	cfg := rest.CopyConfig(cp.Config)
	cfg.QPS, cfg.Burst = -1, 0 // measure the server, not client-go's limiter
	cfg.Wrap(m.counter.WrapTransport)
	kinds := []schema.GroupVersionKind{configMapKind}
	return startManaged(tb, m, cfg, ownerID, opts, kinds, true)
}

// startManaged starts the manager of m, its cache indexed by owner when
// index is set, and builds m's engines.
func startManaged(tb testing.TB, m *managed, cfg *rest.Config, ownerID string, opts apply.Options, kinds []schema.GroupVersionKind, index bool) *managed {
	tb.Helper()
	cp := env.Require(tb)
	cacheOpts, clientOpts := apply.ManagerOptions(name, kinds...)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 cp.Client.Scheme(),
		Cache:                  cacheOpts,
		Client:                 clientOpts,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Logger:                 testkit.Logger(tb).V(2),
	})
	require.NoError(tb, err)
	var indexed []schema.GroupVersionKind
	if index {
		indexed, err = apply.IndexOwners(context.Background(), mgr.GetFieldIndexer(), mgr.GetScheme(), name, kinds...)
		require.NoError(tb, err)
		require.Equal(tb, kinds, indexed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	tb.Cleanup(func() {
		cancel()
		require.NoError(tb, <-done)
	})
	require.True(tb, mgr.GetCache().WaitForCacheSync(ctx))
	opts.Reader = mgr.GetAPIReader()
	m.cached = mgr.GetClient()
	// Without the stray search: it lets a benchmark apply one owner's set
	// in chunks, each with an inventory of its own.
	m.chunkEngine, err = apply.New(name, m.cached, opts)
	require.NoError(tb, err)
	opts.Kinds, opts.IndexedKinds = kinds, indexed
	m.engine, err = apply.New(name, m.cached, opts)
	require.NoError(tb, err)
	m.raw, err = client.New(cfg, client.Options{Scheme: cp.Client.Scheme()})
	require.NoError(tb, err)
	m.owner = apply.Owner{ID: ownerID, DefaultNamespace: m.ns}
	return m
}

func (m *managed) pass() apply.PassOptions { return apply.PassOptions{Owner: m.owner} }

// applyAll calls Apply until it reports done.
func (m *managed) applyAll(ctx context.Context, objects []client.Object) error {
	for {
		res, err := m.engine.Apply(ctx, &m.inv, objects, m.pass())
		if err != nil || res.Done {
			return err
		}
	}
}

// settle waits until a pass over objects makes no request at all: the
// cache has seen every write of the previous passes.
func (m *managed) settle(tb testing.TB, ctx context.Context, objects []client.Object) {
	tb.Helper()
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (apicount.Snapshot, bool, error) {
		before := m.counter.Snapshot()
		res, err := m.engine.Apply(ctx, &m.inv, objects, m.pass())
		delta := m.counter.Snapshot().Sub(before)
		return delta, err == nil && res.Done && delta.Total() == 0, err
	}, time.Minute)
	require.NoError(tb, err)
}

func configMaps(ns string, n int, value string) []client.Object {
	objects := make([]client.Object, n)
	for i := range objects {
		objects[i] = configMap(ns, fmt.Sprintf("cm-%05d", i), map[string]string{"v": value}, nil)
	}
	return objects
}

// With the README's setup, a no-op pass is served from the cache: no
// request at all, pass after pass.
func TestNoOpPassWithTheDocumentedSetupMakesNoRequest(t *testing.T) {
	m := newManaged(t, "owner-a", apply.Options{})
	ctx := testkit.Context(t)
	objects := configMaps(m.ns, 200, "1")
	require.NoError(t, m.applyAll(ctx, objects))
	m.settle(t, ctx, objects)
	for pass := range 3 {
		before := m.counter.Snapshot()
		res, err := m.engine.Apply(ctx, &m.inv, objects, m.pass())
		require.NoError(t, err)
		require.True(t, res.Done)
		require.Zero(t, m.counter.Snapshot().Sub(before).Total(), "pass %d made requests: %v", pass, m.counter.Snapshot().Sub(before))
	}
}
