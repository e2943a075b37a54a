package e2e_test

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
)

// HeapProfileEnv names a directory: when set, every benchmark that
// measures the heap also writes the heap profile of that moment there, as
// <benchmark name>-<what>.pprof (go tool pprof -sample_index=inuse_space;
// the scale benchmarks also write a "-before" profile of the heap they
// subtract, for -diff_base). Unset means no profile.
const HeapProfileEnv = "OPKIT_E2E_HEAPPROFILE"

// heapProfile writes the heap profile of now into HeapProfileEnv's
// directory, named after b and what, when the variable is set. Call it
// right after testkit.HeapInUse, which has just collected the garbage.
func heapProfile(b *testing.B, what string) {
	b.Helper()
	dir := os.Getenv(HeapProfileEnv)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatalf("%s: %v", HeapProfileEnv, err)
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(b.Name() + "-" + what)
	f, err := os.Create(filepath.Join(dir, name+".pprof"))
	if err != nil {
		b.Fatalf("%s: %v", HeapProfileEnv, err)
	}
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatalf("%s: writing the heap profile: %v", HeapProfileEnv, err)
	}
	b.Logf("heap profile: %s", f.Name())
}
