package testkit

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// CIEnv is the environment variable that, when set to a non-empty value other
// than "false", turns a missing control plane from a skip into a failure.
const CIEnv = "CI"

// Env is one control plane shared by the tests of a package. It starts on the
// first Require, so a run that selects only unit tests starts nothing, and
// Main stops it after the last test.
type Env struct {
	// Options configures the control plane.
	Options controlplane.Options

	once sync.Once
	cp   *controlplane.ControlPlane
	err  error
}

// Main runs the package's tests, stops the control plane if one was started
// and exits with the tests' result. Call it from TestMain.
//
// Before the tests, it gives controller-runtime's process-wide logger a
// sink that writes nothing (a test that wants those lines sets another).
// Its caches log through that logger whatever logger their manager has,
// and left unset it prints, half a minute into the run, a warning with a
// stack trace that reads like a failure in the test output.
func (e *Env) Main(m *testing.M) {
	crlog.SetLogger(QuietLogger()) //nolint:forbidigo // silences controller-runtime's own process-wide logger, which its caches use whatever logger they are given
	code := m.Run()
	if err := e.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "testkit: stopping the control plane:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// Stop stops the control plane if Require started one. Main calls it; call
// it yourself only for an Env that is not handed to Main.
func (e *Env) Stop() error {
	if e.cp == nil {
		return nil
	}
	return e.cp.Stop()
}

// Require returns the running control plane, starting it on first use. When
// it cannot start, the test is skipped, unless CI is set or the failure is
// not a missing-assets one: then the test fails.
func (e *Env) Require(t testing.TB) *controlplane.ControlPlane {
	t.Helper()
	e.once.Do(func() {
		e.cp, e.err = controlplane.Start(context.Background(), e.Options)
	})
	if e.err != nil {
		if controlplane.IsAssetsError(e.err) && !InCI() {
			t.Skipf("no control plane: %v", e.err)
		}
		t.Fatalf("no control plane: %v", e.err)
	}
	return e.cp
}

// InCI reports whether the CI environment variable asks for strict runs.
func InCI() bool {
	v := os.Getenv(CIEnv)
	return v != "" && v != "false" && v != "0"
}
