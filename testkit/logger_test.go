package testkit_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/opkit-dev/opkit/testkit"
)

// endingT is a test that can be ended by hand: Log after the end fails
// the test, as the testing package panics then.
type endingT struct {
	testing.TB
	outer *testing.T

	mu       sync.Mutex
	cleanups []func()
	ended    bool
	lines    []string
}

func (e *endingT) Helper() {}

func (e *endingT) Cleanup(f func()) { e.cleanups = append(e.cleanups, f) }

func (e *endingT) Log(args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		e.outer.Errorf("Log after the test ended: %s", fmt.Sprint(args...))
		return
	}
	e.lines = append(e.lines, fmt.Sprint(args...))
}

// end runs the cleanups, last first, then marks the test ended.
func (e *endingT) end() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended = true
}

// A line logged after the test ended (a background goroutine of a
// stopped manager retrying an event, say) is dropped instead of reaching
// t.Log, which the testing package answers with a panic; while the test
// runs, lines with their names and values reach it.
func TestLoggerOutlivesItsTest(t *testing.T) {
	e := &endingT{TB: t, outer: t}
	log := testkit.Logger(e).WithName("mgr").WithValues("k", "v")
	log.Info("while the test runs")
	if !log.V(1).Enabled() || log.V(2).Enabled() {
		t.Error("the logger's verbosity is not 1")
	}
	e.end()
	log.Info("after the test ended")
	log.Error(errors.New("context canceled"), "Unable to write event")
	if len(e.lines) != 1 {
		t.Errorf("the test got %d lines, want the one logged while it ran: %q", len(e.lines), e.lines)
	}
}
