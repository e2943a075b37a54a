package shard

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// Member is one replica of a sharded operator. It keeps the replica's Lease
// renewed, takes its share of the resources (claiming, asking for drains
// and fencing gone members, see Sync) and answers, before each pass,
// whether the replica owns a resource (Owns). Run it with Start, as a
// manager.Runnable, on every replica; it needs no leader election.
type Member struct {
	client    client.Client
	reader    client.Reader
	opts      Options
	shardKey  string
	drainKey  string
	bucketKey string
	ring      atomic.Pointer[Ring] // the ring of the last Sync

	renewMu  sync.Mutex // serializes Renew and Release; guards lastSent
	lastSent time.Time  // the renew time of the last update sent
	syncMu   sync.Mutex // serializes Sync; guards observer
	observer observer

	mu        sync.Mutex            // guards the two fields below, never held across a request
	lease     *coordinationv1.Lease // the version last written, nil before joining and after losing it
	renewedAt time.Time             // when the last successful renewal was sent
}

var (
	_ manager.Runnable               = &Member{}
	_ manager.LeaderElectionRunnable = &Member{}
)

// New returns the member described by opts. c writes the Leases and the
// labels; reader reads them and must not be a cache (a manager's
// GetAPIReader): the assignment's safety rests on reading the latest
// versions.
func New(c client.Client, reader client.Reader, opts Options) (*Member, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Member{
		client:    c,
		reader:    reader,
		opts:      opts,
		shardKey:  commonsv1alpha1.LabelShardPrefix + opts.Ring,
		drainKey:  commonsv1alpha1.LabelShardDrainPrefix + opts.Ring,
		bucketKey: commonsv1alpha1.LabelShardBucketPrefix + opts.Ring,
		observer:  observer{defaultDuration: opts.LeaseDuration, margin: opts.ExpiryMargin},
	}, nil
}

// Name returns the member's name.
func (m *Member) Name() string { return m.opts.Member }

// ShardLabel returns the key of the label that names a resource's owner.
func (m *Member) ShardLabel() string { return m.shardKey }

// DrainLabel returns the key of the label that asks an owner to hand a
// resource over.
func (m *Member) DrainLabel() string { return m.drainKey }

// NeedLeaderElection implements manager.LeaderElectionRunnable: every
// replica is a member.
func (m *Member) NeedLeaderElection() bool { return false }

// Live reports whether the member's own Lease holds: it was renewed less
// than a lease duration ago by the member's clock. The other members wait a
// margin longer, measured from when they saw that renewal, which comes
// after it was sent; so while any of them may act on the member's
// resources, Live is false and Owns refuses every pass.
func (m *Member) Live() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.liveLocked()
}

func (m *Member) liveLocked() bool {
	return m.lease != nil && m.opts.Clock.Since(m.renewedAt) < m.opts.LeaseDuration
}

// Start joins the ring and, every RenewInterval, renews the Lease and runs
// Sync, until ctx ends. Renewals have a loop of their own, so that a long
// Sync (a new member claiming many resources, a slow API server) never
// delays one and lets the Lease lapse. It returns a *LostError when the
// Lease was taken from the member; the process should then exit. A failed
// renewal or sync is logged and tried again at the next interval. Start
// does not release the Lease: call Release once the replica's passes have
// stopped.
func (m *Member) Start(ctx context.Context) error {
	log := logr.FromContextOrDiscard(ctx).WithValues("ring", m.opts.Ring, "member", m.opts.Member)
	if err := m.renew(ctx, log); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lost := make(chan error, 1)
	go func() { lost <- m.renewLoop(ctx, log) }()
	ticker := m.opts.Clock.NewTicker(m.opts.RenewInterval)
	defer ticker.Stop()
	for {
		if res, err := m.Sync(ctx); err != nil {
			log.Error(err, "reviewing the shard assignments")
		} else {
			logActions(log, res)
		}
		select {
		case <-ctx.Done():
			// The renewals end with ctx; a loss found on the way out is
			// the outcome.
			return <-lost
		case err := <-lost:
			return err
		case <-ticker.C():
		}
	}
}

// renewLoop renews the Lease every RenewInterval until ctx ends (nil) or
// the Lease is lost (the *LostError).
func (m *Member) renewLoop(ctx context.Context, log logr.Logger) error {
	ticker := m.opts.Clock.NewTicker(m.opts.RenewInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C():
		}
		if err := m.renew(ctx, log); err != nil {
			return err
		}
	}
}

// renew renews the Lease once, logging a failure; it returns only a
// *LostError.
func (m *Member) renew(ctx context.Context, log logr.Logger) error {
	err := m.Renew(ctx)
	if lost := (*LostError)(nil); errors.As(err, &lost) {
		log.Info("lease lost, stopping", "reason", lost.Reason)
		return err
	}
	if err != nil && ctx.Err() == nil {
		log.Error(err, "renewing the shard lease")
	}
	return nil
}

func logActions(log logr.Logger, res SyncResult) {
	for _, a := range res.Actions {
		log.Info("shard assignment changed", "step", a.Step, "resource", a.Resource, "from", a.From)
	}
	if len(res.Actions) > 0 {
		log.V(1).Info("shard ring", "members", res.View.RingMembers())
	}
}
