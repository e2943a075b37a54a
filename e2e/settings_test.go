package e2e_test

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
)

// Environment variables that size and seed the scenarios. Unset, the
// scenarios run at the size CI affords; make e2e sets the full sizes.
const (
	// SeedEnv seeds every fault injector of a run. Unset means a seed from
	// the clock, printed by every scenario that uses it so a failure can be
	// replayed.
	SeedEnv = "OPKIT_E2E_SEED"
	// ClustersEnv is how many product cluster resources the fault
	// scenarios run. Unset means 3.
	ClustersEnv = "OPKIT_E2E_CLUSTERS"
	// ComponentsEnv is how many components the fault scenarios run. Unset
	// means 3.
	ComponentsEnv = "OPKIT_E2E_COMPONENTS"
)

// intEnv reads a positive integer from the environment, or def.
func intEnv(t testing.TB, name string, def int) int {
	t.Helper()
	return intEnvIn(t, name, def, 1, math.MaxInt, "a positive integer")
}

// countEnv reads a non-negative integer of at most 100 from the
// environment, or def.
func countEnv(t testing.TB, name string, def int) int {
	t.Helper()
	return intEnvIn(t, name, def, 0, 100, "an integer from 0 to 100")
}

// intEnvIn reads an integer from lo to hi from the environment, or def;
// anything else fails t, saying it wants want.
func intEnvIn(t testing.TB, name string, def, lo, hi int, want string) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		t.Fatalf("%s=%q: want %s", name, v, want)
	}
	return n
}

// seed returns the run's seed and makes sure a failing test names it.
func seed(t testing.TB) uint64 {
	t.Helper()
	s := uint64(time.Now().UnixNano())
	if v := os.Getenv(SeedEnv); v != "" {
		var err error
		if s, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s=%q: want an unsigned integer", SeedEnv, v)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", s, SeedEnv, s)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("FAILED with seed %d: replay with %s=%d", s, SeedEnv, s)
		}
	})
	return s
}

// asTimeout reports whether err is a *testkit.TimeoutError.
func asTimeout(err error, te **testkit.TimeoutError) bool { return errors.As(err, te) }

// intsEnv reads a comma-separated list of positive integers, or def.
func intsEnv(t testing.TB, name string, def []int) []int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want positive integers separated by commas", name, v)
		}
		out = append(out, n)
	}
	return out
}
