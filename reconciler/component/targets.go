package component

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/lru"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// target is a cluster and identity objects are applied with.
type target struct {
	// client reads and writes the objects.
	client client.Client
	// reader reads what the client's view may hide (uncached).
	reader client.Reader
	// discovery describes the cluster, for generators and managed types.
	discovery discovery.CachedDiscoveryInterface
	// recorder records events regarding the objects, in their cluster.
	recorder events.EventRecorder
	// cached is set for the manager's own client: its reads come from the
	// informer cache, which the watches keep current, so change hints
	// apply and objects a lost status left behind can be searched cheaply.
	cached bool
	// close releases the target's connections and event broadcaster.
	close func()
}

// targetCache keeps the targets of remote and impersonated clients,
// bounded, least recently used first out; an evicted target is closed,
// and every target is closed when the manager stops.
type targetCache struct {
	mu      sync.Mutex
	entries *lru.Cache
	closed  bool
	scheme  *runtime.Scheme
	name    string
}

func newTargetCache(size int, scheme *runtime.Scheme, name string) *targetCache {
	return &targetCache{
		entries: lru.NewWithEvictionFunc(size, func(_ lru.Key, v any) { v.(*target).close() }),
		scheme:  scheme,
		name:    name,
	}
}

// get returns the target of key, building it from cfg on first use. A
// non-nil recorder records the events regarding its objects (a target in
// the manager's own cluster); otherwise the target gets a broadcaster into
// its cluster.
func (c *targetCache) get(key string, rec events.EventRecorder, cfg func() (*rest.Config, error)) (*target, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("the reconciler is stopping")
	}
	if v, ok := c.entries.Get(key); ok {
		return v.(*target), nil
	}
	rc, err := cfg()
	if err != nil {
		return nil, err
	}
	t, err := c.build(rc, rec)
	if err != nil {
		return nil, err
	}
	c.entries.Add(key, t)
	return t, nil
}

// build makes an uncached client for rc, with its own discovery and, when
// rec is nil, an event broadcaster into that cluster.
func (c *targetCache) build(rc *rest.Config, rec events.EventRecorder) (*target, error) {
	hc, err := rest.HTTPClientFor(rc)
	if err != nil {
		return nil, fmt.Errorf("building an HTTP client: %w", err)
	}
	mapper, err := apiutil.NewDynamicRESTMapper(rc, hc)
	if err != nil {
		return nil, fmt.Errorf("building a REST mapper: %w", err)
	}
	cl, err := client.New(rc, client.Options{HTTPClient: hc, Scheme: c.scheme, Mapper: mapper})
	if err != nil {
		return nil, fmt.Errorf("building a client: %w", err)
	}
	dc, err := discovery.NewDiscoveryClientForConfigAndClient(rc, hc)
	if err != nil {
		return nil, fmt.Errorf("building a discovery client: %w", err)
	}
	t := &target{client: cl, reader: cl, discovery: newCachedDiscovery(dc), recorder: rec}
	if rec != nil {
		t.close = sync.OnceFunc(func() { closeIdle(hc) })
		return t, nil
	}
	cs, err := kubernetes.NewForConfigAndClient(rc, hc)
	if err != nil {
		return nil, fmt.Errorf("building a clientset: %w", err)
	}
	b := events.NewBroadcaster(&events.EventSinkImpl{Interface: cs.EventsV1()})
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.StartRecordingToSinkWithContext(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("starting the event broadcaster: %w", err)
	}
	t.recorder = b.NewRecorder(c.scheme, c.name)
	t.close = sync.OnceFunc(func() {
		cancel()
		b.Shutdown()
		closeIdle(hc)
	})
	return t, nil
}

// Start waits for the manager to stop and then closes every target. It
// makes the cache a manager runnable.
func (c *targetCache) Start(ctx context.Context) error {
	<-ctx.Done()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.entries.Clear()
	return nil
}

// NeedLeaderElection returns false: the cache must close on every
// replica.
func (c *targetCache) NeedLeaderElection() bool { return false }

func closeIdle(hc *http.Client) {
	if hc != nil {
		hc.CloseIdleConnections()
	}
}
