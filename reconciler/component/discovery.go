package component

import (
	"sync"

	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
)

// cachedDiscovery is the discovery of a target: groups and resources in
// memory until a new revision invalidates them (its CRDs may bring new
// types), and the server's version once for the life of the manager. A
// pass that renders nothing asks the API server nothing; a render reads
// the version (for a chart's .Capabilities) from memory. A control plane
// upgraded under a running operator is seen after the operator restarts.
type cachedDiscovery struct {
	discovery.CachedDiscoveryInterface

	mu      sync.Mutex
	version *version.Info
}

func newCachedDiscovery(dc discovery.DiscoveryInterface) *cachedDiscovery {
	return &cachedDiscovery{CachedDiscoveryInterface: memory.NewMemCacheClient(dc)}
}

// ServerVersion returns the server's version, asked once.
func (d *cachedDiscovery) ServerVersion() (*version.Info, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.version != nil {
		v := *d.version
		return &v, nil
	}
	v, err := d.CachedDiscoveryInterface.ServerVersion()
	if err != nil {
		return nil, err
	}
	d.version = v
	c := *v
	return &c, nil
}
