package component

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// freshness remembers, per component, the resourceVersions the
// reconciler's own writes (finalizer patches, status updates) replaced.
// A pass reads the component from the informer cache, which may not have
// seen those writes yet; working from such a copy would apply against an
// old inventory and count revisions twice. Versions are opaque, so the
// check is exact: a cached copy at a replaced version is stale; any other
// version is the write itself or something newer, and clears the record.
type freshness struct {
	mu       sync.Mutex
	replaced map[types.UID]map[string]bool
	// waiting marks components whose pass found a stale copy: the watch
	// lets the update that brings the cache up to date through.
	waiting map[types.UID]bool
}

func newFreshness() *freshness {
	return &freshness{replaced: map[types.UID]map[string]bool{}, waiting: map[types.UID]bool{}}
}

// wrote records that a write replaced version before.
func (f *freshness) wrote(uid types.UID, before string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.replaced[uid] == nil {
		f.replaced[uid] = map[string]bool{}
	}
	f.replaced[uid][before] = true
}

// stale reports whether version is one a write replaced, and then marks
// the component as waiting for the cache.
func (f *freshness) stale(uid types.UID, version string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.replaced[uid][version] {
		f.waiting[uid] = true
		return true
	}
	delete(f.replaced, uid)
	delete(f.waiting, uid)
	return false
}

// awaited reports whether a pass waits for a newer copy of the component
// than version: the watch then passes the event on.
func (f *freshness) awaited(uid types.UID, version string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.waiting[uid] && !f.replaced[uid][version]
}

// forget drops what is known of a component that is gone.
func (f *freshness) forget(uid types.UID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.replaced, uid)
	delete(f.waiting, uid)
}
