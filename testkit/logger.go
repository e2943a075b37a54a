package testkit

import (
	"context"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/go-logr/logr/testr"
)

// Context returns t.Context() carrying a logger that writes through t.Log,
// so code under test that logs with logr.FromContext(ctx) shows its lines
// beside the test's own output. Pass this context (or a manager built with
// Logger(t)): the only process-wide logger testkit sets is
// controller-runtime's, to a quiet one (see Env.Main).
func Context(t testing.TB) context.Context {
	return logr.NewContext(t.Context(), Logger(t))
}

// Logger returns a logger that writes through t.Log, verbosity 1 included.
// Lines logged once the test has ended (a manager's event broadcaster
// retrying in the background, say) are dropped: the testing package
// panics on a t.Log after the test completed.
func Logger(t testing.TB) logr.Logger { return LoggerAt(t, 1) }

// LoggerAt is Logger with the given verbosity: lines of a higher V level
// are not written.
func LoggerAt(t testing.TB, verbosity int) logr.Logger {
	g := &guard{}
	t.Cleanup(func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.done = true
	})
	return logr.New(guarded{t: t, sink: testr.NewWithInterface(t, testr.Options{Verbosity: verbosity}).GetSink(), g: g})
}

// guard tells whether a test has ended; the lock keeps a line from being
// written while the test ends.
type guard struct {
	mu   sync.RWMutex
	done bool
}

// guarded is a sink that forwards to sink until its test ends.
type guarded struct {
	t    testing.TB
	sink logr.LogSink
	g    *guard
}

var _ logr.LogSink = guarded{}

func (s guarded) Init(info logr.RuntimeInfo) { s.sink.Init(info) }

func (s guarded) Enabled(level int) bool { return s.sink.Enabled(level) }

func (s guarded) Info(level int, msg string, kv ...any) {
	s.t.Helper()
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	if !s.g.done {
		s.sink.Info(level, msg, kv...)
	}
}

func (s guarded) Error(err error, msg string, kv ...any) {
	s.t.Helper()
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	if !s.g.done {
		s.sink.Error(err, msg, kv...)
	}
}

func (s guarded) WithValues(kv ...any) logr.LogSink {
	return guarded{t: s.t, sink: s.sink.WithValues(kv...), g: s.g}
}

func (s guarded) WithName(name string) logr.LogSink {
	return guarded{t: s.t, sink: s.sink.WithName(name), g: s.g}
}

// QuietLogger returns a logger that writes nothing, for a manager whose
// logs would drown a benchmark's output. Prefer it to logr.Discard() there:
// a manager given a logger without a sink (what logr.Discard() returns)
// uses controller-runtime's process-wide logger instead, which warns, with
// a stack trace, that it was never set.
func QuietLogger() logr.Logger {
	return funcr.New(func(string, string) {}, funcr.Options{})
}
