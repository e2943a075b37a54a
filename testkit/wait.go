package testkit

import (
	"context"
	"fmt"
	"time"
)

// PollInterval is how often WaitFor evaluates its condition.
const PollInterval = 50 * time.Millisecond

// Condition observes a state and says whether it is the awaited one. An
// error is remembered and the poll goes on: the state may still arrive.
type Condition[T any] func(ctx context.Context) (state T, done bool, err error)

// TimeoutError is returned by WaitFor when the deadline passes. It carries
// the last state observed so a failing test can say what it saw instead.
type TimeoutError struct {
	// Timeout is the deadline that passed.
	Timeout time.Duration
	// Last is the last state the condition returned, nil when it never
	// returned one.
	Last any
	// LastErr is the last error the condition returned, if any.
	LastErr error
}

// Error implements error.
func (e *TimeoutError) Error() string {
	msg := fmt.Sprintf("condition not met within %s; last observed: %+v", e.Timeout, e.Last)
	if e.LastErr != nil {
		msg += fmt.Sprintf("; last error: %v", e.LastErr)
	}
	return msg
}

// Unwrap returns the condition's last error.
func (e *TimeoutError) Unwrap() error { return e.LastErr }

// WaitFor evaluates cond every PollInterval until it reports done, returning
// that state. When timeout passes or ctx ends first, it returns the last
// observed state and a *TimeoutError describing it.
func WaitFor[T any](ctx context.Context, cond Condition[T], timeout time.Duration) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ticker := time.NewTicker(PollInterval)
	defer ticker.Stop()
	var (
		last    T
		seen    bool
		lastErr error
	)
	for {
		state, done, err := cond(ctx)
		if err != nil {
			lastErr = err
		} else {
			last, seen = state, true
			if done {
				return state, nil
			}
		}
		select {
		case <-ctx.Done():
			te := &TimeoutError{Timeout: timeout, LastErr: lastErr}
			if seen {
				te.Last = last
			}
			return last, te
		case <-ticker.C:
		}
	}
}
