package servertest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
)

// TestAPassContextEndsWhenTheLeaseLapses runs one pass context across
// renewals: renewed in time, the pass goes on past the first deadline; not
// renewed, its context ends with ErrNotLive once the lease duration passed
// on the member's clock, before anyone may take its resources.
func TestAPassContextEndsWhenTheLeaseLapses(t *testing.T) {
	r := newRing(t, 0)
	m := r.join("op-0").member
	ctx, cancel := m.WithLease(t.Context())
	defer cancel()
	armed := func() {
		t.Helper()
		if _, err := testkit.WaitFor(t.Context(), func(context.Context) (bool, bool, error) {
			return r.clock.HasWaiters(), r.clock.HasWaiters(), nil
		}, 10*time.Second); err != nil {
			t.Fatalf("the pass context set no timer: %v", err)
		}
	}
	armed()
	r.clock.Step(leaseDuration - time.Second)
	if err := m.Renew(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.clock.Step(2 * time.Second) // past the deadline of the first renewal
	armed()                       // the watch looked again and waits for the next deadline
	if err := ctx.Err(); err != nil {
		t.Fatalf("the pass context ended although the member renewed in time: %v", context.Cause(ctx))
	}

	r.clock.Step(leaseDuration)
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (error, bool, error) {
		return context.Cause(ctx), ctx.Err() != nil, nil
	}, 10*time.Second); err != nil {
		t.Fatalf("the pass context outlived the lease: %v", err)
	}
	if cause := context.Cause(ctx); !errors.Is(cause, shard.ErrNotLive) {
		t.Errorf("the pass context ended with %v, want shard.ErrNotLive", cause)
	}
}
