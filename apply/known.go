package apply

import (
	"maps"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// The engine remembers, per object, the version its last write left (or
// the version it took as its own without a write), for two reasons:
//
//   - Expectations. A cached client answers from an informer that may not
//     have seen that write yet. An object read from it older than the
//     engine's own last write is not acted on: the write is what the cache
//     will show, and its watch event brings the next pass. So a pass never
//     writes on the strength of a read that predates its own previous
//     write (as Kubernetes' controllers keep expectations of their own
//     creates and deletes). Such a version is forgotten once a read shows
//     the cache has caught up and the inventory records the same version,
//     or, like those controllers' expectations, after expectationTTL
//     (objects a caller's change hints skip are not read again soon).
//   - Versions the inventory does not record. The inventory records the
//     version of the write that set an object's desired state. A write
//     that restores the same state after someone else's edit (a revert),
//     or a foreign change the engine takes as its own, leaves a newer
//     version that the inventory does not record: recording it would
//     change what the caller persists, and cost the caller a status write
//     per revert. Such a version is kept as long as the object is managed
//     and compared with first.
//
// After a restart nothing is remembered: an object whose version differs
// from the inventory's is then read through the engine's reader, and
// taken as it is when a write would change nothing (writeChangesNothing),
// so a restart costs a read per reverted object, not a write.

// knownVersions are the versions the engine knows as its own, per object.
// It is safe for concurrent use; the zero value is empty and uses the real
// clock.
type knownVersions struct {
	mu    sync.Mutex
	m     map[inventory.Key]knownVersion
	clock clock.PassiveClock
	// swept is when recorded versions older than expectationTTL were last
	// dropped.
	swept time.Time
}

// expectationTTL is how long a version the inventory records is kept for
// the cache to show it: a cache that lags longer is broken, not slow.
const expectationTTL = 5 * time.Minute

// knownVersion is one object's version the engine knows as its own.
type knownVersion struct {
	uid             types.UID
	resourceVersion string
	generation      int64
	// digest is the desired state the version holds.
	digest string
	// recorded is set when the inventory records this version: it is kept
	// only until the cache has shown it.
	recorded bool
	// at is when the version was set, in Unix seconds.
	at int64
}

// versionOf returns the version of obj, holding digest.
func versionOf(obj client.Object, digest string) knownVersion {
	return knownVersion{uid: obj.GetUID(), resourceVersion: obj.GetResourceVersion(), generation: obj.GetGeneration(), digest: digest}
}

// set remembers v as the object's version. Now and then it drops the
// recorded versions older than expectationTTL (sweepLocked).
func (k *knownVersions) set(key inventory.Key, v knownVersion) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[inventory.Key]knownVersion{}
	}
	now := k.now()
	v.at = now.Unix()
	k.m[key] = v
	k.sweepLocked(now)
}

// get returns the object's known version, whatever the object's UID. It
// sweeps too, so that an engine that no longer writes (a converged
// owner's periodic passes only read) still forgets its old expectations.
func (k *knownVersions) get(key inventory.Key) (knownVersion, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sweepLocked(k.now())
	v, ok := k.m[key]
	return v, ok
}

// now returns the clock's time, the real time without a clock.
func (k *knownVersions) now() time.Time {
	if k.clock != nil {
		return k.clock.Now()
	}
	return time.Now()
}

// sweepLocked drops the recorded versions set more than expectationTTL
// before now, at most once every expectationTTL. The versions the
// inventory does not record stay: they are needed as long as the object
// is managed.
func (k *knownVersions) sweepLocked(now time.Time) {
	if now.Sub(k.swept) < expectationTTL {
		return
	}
	k.swept = now
	expired := now.Add(-expectationTTL).Unix()
	maps.DeleteFunc(k.m, func(_ inventory.Key, v knownVersion) bool { return v.recorded && v.at < expired })
}

// of returns the object's known version when there is one for the object
// of uid (a replacement of the object under the same name has another).
func (k *knownVersions) of(key inventory.Key, uid types.UID) (knownVersion, bool) {
	v, ok := k.get(key)
	return v, ok && v.uid == uid
}

// drop forgets the objects' versions: they are gone, or their inventory
// records them again.
func (k *knownVersions) drop(keys ...inventory.Key) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, key := range keys {
		delete(k.m, key)
	}
}

// observed forgets the object's version when live, read through the
// client, shows the cache has caught up with it and the inventory records
// it: the version is no longer needed.
func (k *knownVersions) observed(key inventory.Key, live client.Object) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	if !ok {
		return
	}
	if v.uid != live.GetUID() || v.recorded && !v.newerThan(live) {
		delete(k.m, key)
	}
}

// newerThan reports whether the version is newer than live's: live was
// read before the version was written. Versions that do not compare (not
// from a Kubernetes API server's storage) are never newer.
func (v knownVersion) newerThan(live client.Object) bool {
	c, err := resourceversion.CompareResourceVersion(v.resourceVersion, live.GetResourceVersion())
	return err == nil && c > 0
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
