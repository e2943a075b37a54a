package crash

import (
	"context"
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/testkit"
)

// Result is what Recover saw.
type Result struct {
	// Killed is false when the first run converged before its k-th write:
	// it was never killed, so every kill point up to its writes was tried.
	Killed bool
	// Before are the first run's writes: exactly k when it was killed.
	Before []Write
	// After are the restarted run's writes until it converged.
	After []Write
}

// Recover starts a run that dies after its k-th write and waits until it
// died or converged reports true. If it died, it starts a new run and
// waits until converged reports true; that run is stopped before Recover
// returns, so the cluster is left as the recovery left it. timeout bounds
// each wait; the error of a wait that timed out carries the last state
// converged saw (see testkit.WaitFor).
func (h *Harness) Recover(ctx context.Context, k int, converged testkit.Condition[string], timeout time.Duration) (Result, error) {
	if k < 1 {
		return Result{}, fmt.Errorf("crash: kill point %d: writes are numbered from 1", k)
	}
	first := h.Start(k)
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		select {
		case <-first.Killed():
			return "killed", true, nil
		default:
		}
		return converged(ctx)
	}, timeout)
	stopErr := first.Stop()
	res := Result{Killed: first.WasKilled(), Before: first.Writes()}
	if err != nil {
		return res, fmt.Errorf("first run, armed to die after write %d: %w", k, err)
	}
	if stopErr != nil {
		return res, fmt.Errorf("first run: %w", stopErr)
	}
	if !res.Killed {
		return res, nil
	}
	second := h.Start(0)
	_, err = testkit.WaitFor(ctx, converged, timeout)
	stopErr = second.Stop()
	res.After = second.Writes()
	if err != nil {
		return res, fmt.Errorf("restarted after a kill at write %d: %w", k, err)
	}
	if stopErr != nil {
		return res, fmt.Errorf("restarted run: %w", stopErr)
	}
	return res, nil
}
