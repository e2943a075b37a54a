package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/opkit-dev/opkit/testkit"
)

// step is one act of the script: it changes something, then waits for the
// condition that shows the operators handled it.
type step struct {
	name string
	// run performs the step; it returns once its condition holds, or the
	// error (with the last state seen) when the deadline passed.
	run func(ctx context.Context, d *demo) error
}

// outcome is what a step took.
type outcome struct {
	name   string
	took   time.Duration
	writes int
	reads  int
	err    error
}

// demo is the script's state.
type demo struct {
	env  *env
	view *view
}

// play runs the steps in order and stops at the first that fails.
func (d *demo) play(ctx context.Context, steps []step) []outcome {
	var out []outcome
	for i, s := range steps {
		d.view.begin(i+1, len(steps), s.name)
		before := d.env.count.Snapshot()
		start := time.Now()
		err := s.run(ctx, d)
		delta := d.env.count.Snapshot().Sub(before)
		o := outcome{name: s.name, took: time.Since(start), writes: delta.Writes(), reads: delta.Reads(), err: err}
		d.view.end(o)
		out = append(out, o)
		if err != nil {
			break
		}
	}
	return out
}

// waitFor polls cond until it holds or timeout passes, showing its state
// as it changes. what describes the condition for the view and the error.
func (d *demo) waitFor(ctx context.Context, what string, timeout time.Duration, cond func(ctx context.Context) (string, bool, error)) error {
	d.view.waiting(what)
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		state, done, err := cond(ctx)
		if err == nil {
			d.view.state(state)
		}
		return state, done, err
	}, timeout)
	if err != nil {
		return fmt.Errorf("waiting until %s: %w", what, err)
	}
	return nil
}

// errStep marks a step whose action itself failed.
var errStep = errors.New("step failed")
