package testkit_test

import (
	"runtime"
	"testing"

	"github.com/opkit-dev/opkit/testkit"
)

// A manager falls back to controller-runtime's process-wide logger when
// its logger has no sink; QuietLogger's has one, and it is silent.
func TestQuietLoggerHasASinkAndIsSilent(t *testing.T) {
	log := testkit.QuietLogger()
	if log.GetSink() == nil {
		t.Fatal("QuietLogger has no sink: a manager would use the process-wide logger")
	}
	if log.V(10).Enabled() {
		t.Error("QuietLogger enables verbose levels, so callers format lines nobody reads")
	}
	log.Info("nothing", "k", "v") // must not panic
}

func TestHeapInUseCountsWhatIsKept(t *testing.T) {
	before := testkit.HeapInUse()
	kept := make([]byte, 64<<20)
	for i := range kept {
		kept[i] = byte(i)
	}
	after := testkit.HeapInUse()
	runtime.KeepAlive(kept)
	if after < before+32<<20 {
		t.Errorf("heap in use %d B after keeping 64 MiB, %d B before", after, before)
	}
}

func TestHeapLiveCountsWhatIsKeptAndNotWhatIsDropped(t *testing.T) {
	before := testkit.HeapLive()
	kept := filled(64 << 20)
	if n := len(filled(64 << 20)); n != 64<<20 {
		t.Fatalf("allocated %d B", n)
	}
	after := testkit.HeapLive()
	inUse := testkit.HeapInUse()
	runtime.KeepAlive(kept)
	if after < before+32<<20 {
		t.Errorf("live heap %d B after keeping 64 MiB, %d B before", after, before)
	}
	if after > before+96<<20 {
		t.Errorf("live heap %d B after keeping 64 MiB and dropping 64 MiB, %d B before: the dropped bytes count", after, before)
	}
	if inUse < after {
		t.Errorf("heap in use %d B is below the live heap %d B", inUse, after)
	}
}

// filled returns n bytes, each written.
func filled(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}
