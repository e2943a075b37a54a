package testkit_test

import (
	"context"
	"errors"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/opkit-dev/opkit/testkit"
)

// stubManager is the part of a manager RunManager drives.
type stubManager struct {
	manager.Manager
	started chan struct{}
	err     error
}

func (m *stubManager) Start(ctx context.Context) error {
	close(m.started)
	<-ctx.Done()
	return m.err
}

// recorder records what RunManager reports to its test.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, f) }

func TestRunManagerStopsAtCleanupAndReportsItsError(t *testing.T) {
	for _, tt := range []struct {
		name    string
		err     error
		reports bool
	}{{"clean stop", nil, false}, {"failed stop", errors.New("cache sync"), true}} {
		t.Run(tt.name, func(t *testing.T) {
			m := &stubManager{started: make(chan struct{}), err: tt.err}
			r := &recorder{TB: t}
			testkit.RunManager(r, m)
			<-m.started
			for _, f := range r.cleanups {
				f() // returns only once Start has returned
			}
			if got := len(r.errors) > 0; got != tt.reports {
				t.Errorf("reported an error: %v, want %v", got, tt.reports)
			}
		})
	}
}
