package apply

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// The inventory records the version (generation, or resourceVersion for
// kinds without one) of the write that set an object's desired state. A
// write that restores the same desired state after someone else's edit (a
// revert), or a foreign change the engine takes as its own without a write,
// leaves a newer version that the inventory does not record: recording it
// would change what the caller persists, and so cost the caller a status
// write for every revert. The engine keeps such versions in memory
// instead, in knownVersions, and compares live objects with them first.
//
// After a restart they are gone: an object whose version differs from the
// inventory's is then read through the engine's reader, and taken as it is
// when a write would change nothing (see writeChangesNothing), so a
// restart costs a read per reverted object, not a write.

// knownVersions are the versions of objects, newer than their inventory's
// record, that the engine wrote or took as its own. It is safe for
// concurrent use; the zero value is empty.
type knownVersions struct {
	mu sync.Mutex
	m  map[inventory.Key]knownVersion
}

// knownVersion is one object's version the engine knows as its own.
type knownVersion struct {
	uid             types.UID
	resourceVersion string
	generation      int64
}

// versionOf returns the version of obj.
func versionOf(obj client.Object) knownVersion {
	return knownVersion{uid: obj.GetUID(), resourceVersion: obj.GetResourceVersion(), generation: obj.GetGeneration()}
}

// set remembers v as the object's version.
func (k *knownVersions) set(key inventory.Key, v knownVersion) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[inventory.Key]knownVersion{}
	}
	k.m[key] = v
}

// get returns the object's known version when there is one for the object
// of uid (a replacement of the object under the same name has another).
func (k *knownVersions) get(key inventory.Key, uid types.UID) (knownVersion, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	return v, ok && v.uid == uid
}

// drop forgets the objects' versions: their inventory records them again,
// or they are gone.
func (k *knownVersions) drop(keys ...inventory.Key) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range keys {
		delete(k.m, key)
	}
}

// changedSince reports whether live is another version than v: compared by
// generation for kinds that have one (a status update by a controller is
// not a change), by resourceVersion otherwise.
func (v knownVersion) changedSince(live client.Object) bool {
	if live.GetGeneration() > 0 || v.generation > 0 {
		return live.GetGeneration() != v.generation
	}
	return live.GetResourceVersion() != v.resourceVersion
}
