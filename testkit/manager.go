package testkit

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// RunManager starts mgr in the background until the test ends; at cleanup
// it stops the manager and fails the test if it stopped with an error.
// Build mgr with Logger(t) so its log lines join the test's.
func RunManager(t testing.TB, mgr manager.Manager) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
}
