package apicount

import (
	"maps"
	"net/http"
	"strings"
	"sync"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// Key identifies a kind of request.
type Key struct {
	// Verb is get, list, watch, create, update, patch, delete or
	// deletecollection; a non-resource request (discovery, /version) uses the
	// lower-cased HTTP method.
	Verb string
	// Resource is "<resource>[.<group>][/<subresource>]", e.g. "pods",
	// "statefulsets.apps/scale"; for a non-resource request the URL path.
	Resource string
}

// IsRead reports whether k is a get, list or watch of a resource.
func (k Key) IsRead() bool { return k.isResource() && reqinfo.IsRead(k.Verb) }

// IsWrite reports whether k is a create, update, patch, delete or
// deletecollection of a resource.
func (k Key) IsWrite() bool { return k.isResource() && reqinfo.IsWrite(k.Verb) }

// isResource is false for non-resource requests (discovery, /version),
// whose Resource is the URL path.
func (k Key) isResource() bool { return !strings.HasPrefix(k.Resource, "/") }

// Counter counts requests. It is safe for concurrent use.
type Counter struct {
	mu     sync.Mutex
	counts Snapshot
}

// New returns a Counter with nothing counted.
func New() *Counter {
	return &Counter{counts: Snapshot{}}
}

// WrapTransport returns a round-tripper that counts each request, then
// passes it to next. Its signature fits rest.Config.Wrap.
func (c *Counter) WrapTransport(next http.RoundTripper) http.RoundTripper {
	return &transport{counter: c, next: next}
}

// Snapshot returns the counts so far; later requests do not change it.
func (c *Counter) Snapshot() Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.counts)
}

func (c *Counter) add(k Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[k]++
}

type transport struct {
	counter *Counter
	next    http.RoundTripper
}

var _ http.RoundTripper = (*transport)(nil)

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	info := reqinfo.Classify(req)
	t.counter.add(Key{Verb: info.Verb, Resource: info.Resource})
	return t.next.RoundTrip(req)
}
