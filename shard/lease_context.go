package shard

import (
	"context"
	"errors"
	"time"
)

// ErrNotLive is the cause of a context from WithLease that ended because
// the member stopped being live.
var ErrNotLive = errors.New("shard member is not live")

// WithLease returns a copy of ctx for one pass that ends, with cause
// ErrNotLive, when the member stops being live: when its Lease was not
// renewed within the lease duration, was lost or released. Renewals during
// the pass keep it going. The other members take the member's resources
// only a margin after that, so the writes of a pass that honours the
// context stop before anyone else's begin, even when the member's renewals
// stopped in the middle of a long pass. Call cancel when the pass ends.
func (m *Member) WithLease(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go m.watchLease(ctx, cancel)
	return ctx, func() { cancel(context.Canceled) }
}

func (m *Member) watchLease(ctx context.Context, cancel context.CancelCauseFunc) {
	for {
		until, live := m.liveUntil()
		if !live {
			cancel(ErrNotLive)
			return
		}
		t := m.opts.Clock.NewTimer(until.Sub(m.opts.Clock.Now()))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// liveUntil returns when the member stops being live unless it renews, and
// whether it is live now.
func (m *Member) liveUntil() (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.renewedAt.Add(m.opts.LeaseDuration), m.liveLocked()
}
