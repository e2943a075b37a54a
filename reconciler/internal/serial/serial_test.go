package serial_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/opkit-dev/opkit/reconciler/internal/serial"
)

// Holders of one key never overlap; holders of different keys do not wait
// for each other.
func TestKeysSerialisePerKey(t *testing.T) {
	var keys serial.Keys[string]
	var inside [2]atomic.Int32
	var overlap atomic.Bool
	var wg sync.WaitGroup
	for i := range 200 {
		k := i % 2
		wg.Go(func() {
			unlock := keys.Lock([]string{"a", "b"}[k])
			defer unlock()
			if inside[k].Add(1) > 1 {
				overlap.Store(true)
			}
			runtime.Gosched() // let another holder in, were it allowed
			inside[k].Add(-1)
		})
	}
	wg.Wait()
	if overlap.Load() {
		t.Fatal("two holders of one key overlapped")
	}

	unlockA := keys.Lock("a")
	done := make(chan struct{})
	go func() {
		unlock := keys.Lock("b")
		unlock()
		close(done)
	}()
	<-done // would block forever if "b" waited for "a"
	unlockA()
}
