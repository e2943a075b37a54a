package testkit

import "runtime"

// HeapInUse returns the bytes in use on the heap after two full
// collections (the second frees what finalizers of the first released),
// for benchmarks that report memory per object as the difference of two
// readings.
func HeapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
