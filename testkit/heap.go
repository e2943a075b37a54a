package testkit

import "runtime"

// HeapInUse returns the bytes in use on the heap after two full
// collections (the second frees what finalizers of the first released),
// for benchmarks that report memory per object as the difference of two
// readings.
func HeapInUse() uint64 {
	return collected().HeapInuse
}

// HeapLive returns the bytes of the objects alive on the heap after two
// full collections. It is at most HeapInUse, which also counts the free
// slots of the spans those objects occupy; the difference of two readings
// is what the objects kept in between cost, without the allocator's
// fragmentation.
func HeapLive() uint64 {
	return collected().HeapAlloc
}

// collected returns the memory statistics after two full collections.
func collected() runtime.MemStats {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}
