package fresh

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// Versions remembers, per resource, the resourceVersions the reconciler's
// own writes replaced. The zero value is ready to use; it is safe for
// concurrent use.
type Versions struct {
	mu      sync.Mutex
	records map[types.NamespacedName]*writes
}

// writes are the versions a resource's writes replaced.
type writes struct {
	uid      types.UID
	replaced map[string]bool
	// waiting is set when a pass found a stale copy: the watch then lets
	// the update that brings the cache up to date through.
	waiting bool
}

// Wrote records that a write to the resource key (of uid) replaced
// version before.
func (v *Versions) Wrote(key types.NamespacedName, uid types.UID, before string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.records == nil {
		v.records = map[types.NamespacedName]*writes{}
	}
	w := v.records[key]
	if w == nil || w.uid != uid {
		w = &writes{uid: uid, replaced: map[string]bool{}}
		v.records[key] = w
	}
	w.replaced[before] = true
}

// Stale reports whether version is one of the replaced versions of the
// resource, and then marks the resource as waiting for the cache. Any
// other version clears the record.
func (v *Versions) Stale(key types.NamespacedName, uid types.UID, version string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	w := v.records[key]
	if w == nil {
		return false
	}
	if w.uid == uid && w.replaced[version] {
		w.waiting = true
		return true
	}
	delete(v.records, key)
	return false
}

// Awaited reports whether a pass found a stale copy of the resource and
// waits for a newer one than version: a watch predicate that drops status
// updates lets this one through.
func (v *Versions) Awaited(key types.NamespacedName, uid types.UID, version string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	w := v.records[key]
	return w != nil && w.waiting && w.uid == uid && !w.replaced[version]
}

// Forget drops what is known of a resource that is gone.
func (v *Versions) Forget(key types.NamespacedName) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.records, key)
}
