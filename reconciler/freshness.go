package reconciler

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// freshness remembers, per cluster resource, the resourceVersion a status
// write replaced. The next pass reads the resource from the informer cache,
// which may not have seen the write yet; a pass working from that stale
// copy would take the objects of the written inventory for untracked ones
// and write them again. Resource versions are opaque, so the check is
// exact rather than ordered: a cached copy still at the replaced version is
// stale; any other version is the write or something newer (the watch is
// ordered).
type freshness struct {
	mu       sync.Mutex
	replaced map[types.UID]string
}

func newFreshness() *freshness { return &freshness{replaced: map[types.UID]string{}} }

// wrote records that a status write replaced version before.
func (f *freshness) wrote(uid types.UID, before string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replaced[uid] = before
}

// stale reports whether version is one a status write replaced; once a
// later version is seen the record is dropped.
func (f *freshness) stale(uid types.UID, version string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	before, ok := f.replaced[uid]
	if !ok {
		return false
	}
	if before == version {
		return true
	}
	delete(f.replaced, uid)
	return false
}

// forget drops the record of a resource that is gone.
func (f *freshness) forget(uid types.UID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.replaced, uid)
}
