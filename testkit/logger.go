package testkit

import (
	"context"
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
func Logger(t testing.TB) logr.Logger {
	return testr.NewWithInterface(t, testr.Options{Verbosity: 1})
}

// QuietLogger returns a logger that writes nothing, for a manager whose
// logs would drown a benchmark's output. Prefer it to logr.Discard() there:
// a manager given a logger without a sink (what logr.Discard() returns)
// uses controller-runtime's process-wide logger instead, which warns, with
// a stack trace, that it was never set.
func QuietLogger() logr.Logger {
	return funcr.New(func(string, string) {}, funcr.Options{})
}
