package observe

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// Logger returns the logger ctx carries, or fallback when it carries none.
// The reconcilers never log through controller-runtime's process-wide
// logger, which an operator may not have set.
func Logger(ctx context.Context, fallback logr.Logger) logr.Logger {
	if log, err := logr.FromContext(ctx); err == nil {
		return log
	}
	return fallback
}

// Register registers c on controller-runtime's registry, or returns the
// collector registered before under its name: every reconciler of a kind in
// a process shares the series, told apart by their labels.
func Register[C prometheus.Collector](c C) (C, error) {
	err := ctrlmetrics.Registry.Register(c)
	var dup prometheus.AlreadyRegisteredError
	if errors.As(err, &dup) {
		if existing, ok := dup.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	return c, err
}

// Panic is a panic recovered in a pass, with the stack where it happened.
// A pass that runs work on other goroutines re-raises their panics on its
// own as a Panic, so that the stack logged is the one of the failure.
type Panic struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack when it panicked.
	Stack []byte
}

// Recovered turns v, a value recover returned, into a Panic: v itself when
// it is one, else v with the current stack.
func Recovered(v any) Panic {
	if p, ok := v.(Panic); ok {
		return p
	}
	return Panic{Value: v, Stack: debug.Stack()}
}

// String returns the panic's value.
func (p Panic) String() string { return fmt.Sprint(p.Value) }
