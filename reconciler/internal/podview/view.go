package podview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// DefaultInterval is how often a View compares the buckets it holds with
// the replica's when Options.Interval is zero.
const DefaultInterval = time.Second

// fillTimeout bounds the wait for a new cache's first list; the view
// tries again at its next comparison.
const fillTimeout = time.Minute

// Options configure a View. Config, Scheme, Mapper, BucketLabel, Buckets
// and Reader are required.
type Options struct {
	// Config reaches the API server.
	Config *rest.Config
	// Scheme knows corev1.
	Scheme *runtime.Scheme
	// Mapper maps pods to their resource.
	Mapper meta.RESTMapper
	// Namespaces restricts the view to these namespaces, as
	// cache.Options.DefaultNamespaces does. Nil means every namespace.
	Namespaces map[string]cache.Config
	// Selector selects the pods the operator manages, whatever their
	// bucket. Nil means every pod.
	Selector labels.Selector
	// BucketLabel is the key of the label that carries a pod's bucket.
	BucketLabel string
	// Buckets returns the buckets whose pods the view should hold now.
	Buckets func() []string
	// Transform trims a pod on its way into the view. Nil keeps pods
	// whole.
	Transform toolscache.TransformFunc
	// Reader reads the pods of a bucket the view does not hold: an
	// uncached reader, such as a manager's API reader.
	Reader client.Reader
	// Interval is how often the view compares its buckets with Buckets().
	// Zero means DefaultInterval.
	Interval time.Duration
	// Clock ticks the comparisons. Nil means the real clock.
	Clock clock.WithTicker
}

// View holds the pods of a replica's buckets. Run it with Start, as a
// manager.Runnable; List is safe for concurrent use.
type View struct {
	opts Options

	mu  sync.RWMutex
	cur *generation // the buckets held and their cache; nil when none
}

// generation is one cache of the view, for one set of buckets.
type generation struct {
	key     string          // the buckets, joined: compared with the wanted set
	buckets map[string]bool // the buckets held
	reader  client.Reader
	stop    context.CancelFunc
}

var (
	_ manager.Runnable               = &View{}
	_ manager.LeaderElectionRunnable = &View{}
)

// New returns a view configured by opts; it holds nothing until Start.
func New(opts Options) (*View, error) {
	switch {
	case opts.Config == nil:
		return nil, fmt.Errorf("podview: Options.Config is required")
	case opts.Scheme == nil:
		return nil, fmt.Errorf("podview: Options.Scheme is required")
	case opts.Mapper == nil:
		return nil, fmt.Errorf("podview: Options.Mapper is required")
	case opts.BucketLabel == "":
		return nil, fmt.Errorf("podview: Options.BucketLabel is required")
	case opts.Buckets == nil:
		return nil, fmt.Errorf("podview: Options.Buckets is required")
	case opts.Reader == nil:
		return nil, fmt.Errorf("podview: Options.Reader is required")
	}
	if opts.Selector == nil {
		opts.Selector = labels.Everything()
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return &View{opts: opts}, nil
}

// NeedLeaderElection implements manager.LeaderElectionRunnable: every
// sharded replica holds its own pods.
func (v *View) NeedLeaderElection() bool { return false }

// Start follows the replica's buckets until ctx ends: whenever they
// change, it fills a cache for the new set and then drops the old one. A
// cache that fails to fill is logged and tried again at the next
// comparison; meanwhile List reads from the API server what the view does
// not hold.
func (v *View) Start(ctx context.Context) error {
	log := logr.FromContextOrDiscard(ctx).WithName("podview")
	ticker := v.opts.Clock.NewTicker(v.opts.Interval)
	defer ticker.Stop()
	defer v.swap(nil)
	for {
		if err := v.Refresh(ctx); err != nil && ctx.Err() == nil {
			log.Error(err, "caching the pods of this replica's buckets")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C():
		}
	}
}

// Refresh makes the view hold the buckets Buckets() returns now, if it
// does not already: it fills a cache for them (blocking until it has
// listed their pods) and then drops the old one. Start calls it at every
// interval.
func (v *View) Refresh(ctx context.Context) error {
	want := slices.Clone(v.opts.Buckets())
	slices.Sort(want)
	want = slices.Compact(want)
	key := strings.Join(want, ",")
	v.mu.RLock()
	cur := v.cur
	v.mu.RUnlock()
	if (cur == nil && len(want) == 0) || (cur != nil && cur.key == key) {
		return nil
	}
	if len(want) == 0 {
		v.swap(nil)
		return nil
	}
	next, err := v.fill(ctx, want, key)
	if err != nil {
		return err
	}
	v.swap(next)
	return nil
}

// fill starts a cache of the pods of buckets and waits until it has
// listed them.
func (v *View) fill(ctx context.Context, buckets []string, key string) (*generation, error) {
	req, err := labels.NewRequirement(v.opts.BucketLabel, selection.In, buckets)
	if err != nil {
		return nil, fmt.Errorf("podview: selecting buckets %s: %w", key, err)
	}
	c, err := cache.New(v.opts.Config, cache.Options{
		Scheme:            v.opts.Scheme,
		Mapper:            v.opts.Mapper,
		DefaultNamespaces: v.opts.Namespaces,
		DefaultTransform:  v.opts.Transform,
		ByObject:          map[client.Object]cache.ByObject{&corev1.Pod{}: {Label: v.opts.Selector.Add(*req)}},
	})
	if err != nil {
		return nil, fmt.Errorf("podview: %w", err)
	}
	cctx, stop := context.WithCancel(ctx)
	go func() { _ = c.Start(cctx) }()
	wait, cancel := context.WithTimeout(cctx, fillTimeout)
	defer cancel()
	// GetInformer registers the pod informer but waits for nothing when the
	// cache has not started yet; WaitForCacheSync waits for the start and
	// for the first list, so that no List meets an unstarted cache.
	if _, err := c.GetInformer(wait, &corev1.Pod{}); err != nil {
		stop()
		return nil, fmt.Errorf("podview: listing the pods of %d buckets: %w", len(buckets), err)
	}
	if !c.WaitForCacheSync(wait) {
		stop()
		return nil, fmt.Errorf("podview: listing the pods of %d buckets: %w", len(buckets), context.Cause(wait))
	}
	held := make(map[string]bool, len(buckets))
	for _, b := range buckets {
		held[b] = true
	}
	return &generation{key: key, buckets: held, reader: c, stop: stop}, nil
}

// swap makes next the view's cache and stops the one it replaces.
func (v *View) swap(next *generation) {
	v.mu.Lock()
	old := v.cur
	v.cur = next
	v.mu.Unlock()
	if old != nil {
		old.stop()
	}
}

// Holds reports whether the view holds the pods of bucket.
func (v *View) Holds(bucket string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.cur != nil && v.cur.buckets[bucket]
}

// List lists into list the pods of bucket that opts select: from the view
// when it holds bucket, else from Options.Reader.
func (v *View) List(ctx context.Context, bucket string, list *corev1.PodList, opts ...client.ListOption) error {
	v.mu.RLock()
	cur := v.cur
	v.mu.RUnlock()
	if cur != nil && cur.buckets[bucket] {
		return cur.reader.List(ctx, list, opts...)
	}
	return v.opts.Reader.List(ctx, list, opts...)
}
