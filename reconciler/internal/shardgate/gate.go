package shardgate

import (
	"context"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// AdmitDrains returns p, and with s (a non-nil Sharding) also the events
// s.DrainRequested admits: a reconciler's own filter of its resources'
// updates must not keep a requested drain from the pass that
// acknowledges it.
func AdmitDrains(p predicate.Predicate, s Sharding) predicate.Predicate {
	if s == nil {
		return p
	}
	return predicate.Or(p, s.DrainRequested())
}

// Sharding is what a reconciler needs of a sharding member, such as the
// shard module's *Member, to work on one replica's share of the resources.
type Sharding interface {
	// Owns reports whether this replica may run a pass over obj now; it
	// acknowledges a requested drain instead of running one.
	Owns(ctx context.Context, obj client.Object) (bool, error)
	// Live reports whether the replica is a live member: one that is not
	// (its lease lapsed for a moment) owns nothing until it renews.
	Live() bool
	// Selector selects the resources (and the objects they manage) the
	// replica owns.
	Selector() labels.Selector
	// DrainRequested admits the events of a resource another replica asked
	// for, so that the drain reaches the pass that acknowledges it.
	DrainRequested() predicate.Predicate
	// WithLease returns the context of one pass: it ends when the replica
	// stops being a live member, before another replica may take over.
	WithLease(ctx context.Context) (context.Context, context.CancelFunc)
	// BucketLabel is the key of the label that carries a resource's
	// bucket, a value fixed by the resource's identity that a move does
	// not change: the member sets it on the resource it claims, and the
	// reconciler copies it to the resource's pod templates.
	BucketLabel() string
	// Buckets returns the buckets the replica's view of the ring gives it
	// now, in increasing order; none while it has not joined. The pods of
	// the resources it owns are in them, except around a move.
	Buckets() []string
}

// notLiveRetry is how long a pass waits when the replica was not a live
// member at its start.
const notLiveRetry = time.Second

// Gate runs Next only for the resources Sharding says this replica owns.
// A pass that finds the replica not live is tried again a little later
// rather than dropped: the replica's own resources would otherwise wait
// for their next event.
type Gate struct {
	// Sharding decides ownership.
	Sharding Sharding
	// Reader reads the resource, from the replica's cache.
	Reader client.Reader
	// New returns an empty resource to read into.
	New func() client.Object
	// Next is the reconciler.
	Next reconcile.Reconciler
}

var _ reconcile.Reconciler = &Gate{}

// Reconcile implements reconcile.Reconciler. A resource the replica cannot
// read goes to Next, which handles it as gone: deleted, or handed to
// another replica, so Next forgets what it kept about it. An owned
// resource's pass runs with the context of Sharding.WithLease.
func (g *Gate) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	obj := g.New()
	if err := g.Reader.Get(ctx, req.NamespacedName, obj); err != nil {
		return g.Next.Reconcile(ctx, req)
	}
	owns, err := g.Sharding.Owns(ctx, obj)
	if err != nil {
		return reconcile.Result{}, err
	}
	if !owns {
		if !g.Sharding.Live() {
			// Not the replica's to judge now: its lease lapsed, and the
			// resource may well be its own again once it renews.
			logr.FromContextOrDiscard(ctx).V(1).Info("not a live shard member: pass postponed", "resource", req.NamespacedName)
			return reconcile.Result{RequeueAfter: notLiveRetry}, nil
		}
		logr.FromContextOrDiscard(ctx).V(1).Info("another replica's share: no pass", "resource", req.NamespacedName)
		return reconcile.Result{}, nil
	}
	ctx, cancel := g.Sharding.WithLease(ctx)
	defer cancel()
	return g.Next.Reconcile(ctx, req)
}
