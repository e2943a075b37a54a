package crash

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/opkit-dev/opkit/testkit/internal/reqinfo"
)

// Write is a write request that a run sent to the API server.
type Write struct {
	// N is the write's 1-based number among the run's counted writes.
	N int
	// Verb is create, update, patch, delete or deletecollection.
	Verb string
	// Resource is "<resource>[.<group>][/<subresource>]".
	Resource string
	// Namespace and Name are the request's; a create's name is read from
	// its body when the body is JSON (empty for a generated name).
	Namespace, Name string
	// At is when the request was sent.
	At time.Time
}

// ErrKilled is the error every request of a killed run fails with.
var ErrKilled = errors.New("crash: the operator was killed")

// DefaultCounts counts every write except those to events and leases.
func DefaultCounts(verb, resource string) bool {
	if !reqinfo.IsWrite(verb) {
		return false
	}
	switch resource {
	case "events", "events.events.k8s.io", "leases.coordination.k8s.io":
		return false
	}
	return true
}

// cutoff is a run's transport: it records the counted writes and, once
// killed, fails every request.
type cutoff struct {
	after  int
	counts func(verb, resource string) bool
	now    func() time.Time

	mu     sync.Mutex
	writes []Write
	dead   bool
	killed chan struct{}
	// open are the response bodies still streaming (watches above all):
	// a kill closes them, so the dead run hears nothing more.
	open map[*body]struct{}
}

func newCutoff(after int, counts func(verb, resource string) bool, now func() time.Time) *cutoff {
	return &cutoff{after: after, counts: counts, now: now, killed: make(chan struct{}), open: map[*body]struct{}{}}
}

// kill marks the run dead and signals it; it is idempotent.
func (c *cutoff) kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dieLocked()
	c.signalLocked()
}

// dieLocked refuses every further request and ends the open streams.
func (c *cutoff) dieLocked() {
	if c.dead {
		return
	}
	c.dead = true
	for b := range c.open {
		_ = b.ReadCloser.Close()
	}
	clear(c.open)
}

// signalLocked closes killed, once.
func (c *cutoff) signalLocked() {
	select {
	case <-c.killed:
	default:
		close(c.killed)
	}
}

func (c *cutoff) isDead() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead
}

func (c *cutoff) recorded() []Write {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.writes)
}

// admit decides a request's fate before it is sent: refused when the run
// is dead; otherwise sent, and when it is the last write the run makes,
// the run dies as it goes out (its response is lost).
func (c *cutoff) admit(req *http.Request) (send, last bool) {
	info := reqinfo.Classify(req)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return false, false
	}
	if !c.counts(info.Verb, info.Resource) {
		return true, false
	}
	n := len(c.writes) + 1
	name := info.Name
	if name == "" && info.Verb == "create" {
		name = createdName(req)
	}
	c.writes = append(c.writes, Write{N: n, Verb: info.Verb, Resource: info.Resource, Namespace: info.Namespace, Name: name, At: c.now()})
	if c.after > 0 && n == c.after {
		c.dieLocked()
		return true, true
	}
	return true, false
}

func (c *cutoff) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		req = bufferCreate(req)
		send, last := c.admit(req)
		if !send {
			if req.Body != nil {
				_ = req.Body.Close()
			}
			return nil, ErrKilled
		}
		if last {
			// The kill write goes out whatever happens to the run: the
			// run's context is cancelled only once the server answered.
			req = req.WithContext(context.WithoutCancel(req.Context()))
			defer c.kill()
		}
		resp, err := next.RoundTrip(req)
		if err != nil {
			if last {
				return nil, ErrKilled
			}
			return resp, err
		}
		if last || !c.track(resp) {
			// The server got the request; the dead process never sees
			// the answer.
			_ = resp.Body.Close()
			return nil, ErrKilled
		}
		return resp, nil
	})
}

// track wraps resp's body so that a kill closes it; false when the run
// is already dead.
func (c *cutoff) track(resp *http.Response) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return false
	}
	b := &body{ReadCloser: resp.Body, c: c}
	c.open[b] = struct{}{}
	resp.Body = b
	return true
}

// body is a response body a kill closes.
type body struct {
	io.ReadCloser
	c *cutoff
}

// Read fails with ErrKilled once the run is dead.
func (b *body) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && b.c.isDead() {
		return n, ErrKilled
	}
	return n, err
}

// Close closes the body and forgets it.
func (b *body) Close() error {
	b.c.mu.Lock()
	delete(b.c.open, b)
	b.c.mu.Unlock()
	return b.ReadCloser.Close()
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// bufferCreate returns a POST request whose body can be read again
// (GetBody), a copy of req when it had none, so that its object's name can
// be read before it is sent.
func bufferCreate(req *http.Request) *http.Request {
	if req.Method != http.MethodPost || req.Body == nil || req.GetBody != nil {
		return req
	}
	b, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(b))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	if err != nil {
		// the transport reports the failed read as the request's error
		out.Body = io.NopCloser(errReader{err})
	}
	return out
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
