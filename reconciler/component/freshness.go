package component

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// freshness remembers, per component, the resourceVersions the
// reconciler's own writes (finalizer patches, status updates) replaced.
// A pass reads the component from the informer cache, which may not have
// seen those writes yet; working from such a copy would apply against an
// old inventory, count a revision twice or run a deletion's hooks again.
// Versions are opaque, so the check is exact: a cached copy at a replaced
// version is stale; any other version is the write itself or something
// newer, and clears the record. The record outlives the removal of the
// finalizer, until a pass finds the component gone.
type freshness struct {
	mu      sync.Mutex
	records map[types.NamespacedName]*writes
}

// writes are the versions a component's writes replaced.
type writes struct {
	uid      types.UID
	replaced map[string]bool
	// waiting is set when a pass found a stale copy: the watch then lets
	// the update that brings the cache up to date through.
	waiting bool
}

func newFreshness() *freshness {
	return &freshness{records: map[types.NamespacedName]*writes{}}
}

// wrote records that a write replaced version before.
func (f *freshness) wrote(key types.NamespacedName, uid types.UID, before string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.records[key]
	if w == nil || w.uid != uid {
		w = &writes{uid: uid, replaced: map[string]bool{}}
		f.records[key] = w
	}
	w.replaced[before] = true
}

// stale reports whether version is one a write replaced, and then marks
// the component as waiting for the cache.
func (f *freshness) stale(key types.NamespacedName, uid types.UID, version string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.records[key]
	if w == nil {
		return false
	}
	if w.uid == uid && w.replaced[version] {
		w.waiting = true
		return true
	}
	delete(f.records, key)
	return false
}

// awaited reports whether a pass waits for a newer copy of the component
// than version: the watch then passes the event on.
func (f *freshness) awaited(key types.NamespacedName, uid types.UID, version string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	w := f.records[key]
	return w != nil && w.waiting && w.uid == uid && !w.replaced[version]
}

// forget drops what is known of a component that is gone.
func (f *freshness) forget(key types.NamespacedName) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.records, key)
}
