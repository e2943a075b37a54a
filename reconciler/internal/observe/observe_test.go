package observe_test

import (
	"context"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"

	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

func TestLoggerFromPrefersTheContextsLogger(t *testing.T) {
	var got []string
	named := func(name string) logr.Logger {
		return funcr.New(func(_, _ string) { got = append(got, name) }, funcr.Options{})
	}
	ctx := logr.NewContext(context.Background(), named("context"))
	observe.Logger(ctx, named("fallback")).Info("x")
	observe.Logger(context.Background(), named("fallback")).Info("x")
	if len(got) != 2 || got[0] != "context" || got[1] != "fallback" {
		t.Errorf("loggers used: %v, want [context fallback]", got)
	}
}
