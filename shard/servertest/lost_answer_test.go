package servertest_test

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/shard"
)

// loseAnswer forwards requests; while armed, it drops the answer to the
// next update (PUT), as a connection lost after the server wrote would.
type loseAnswer struct {
	next  http.RoundTripper
	armed atomic.Bool
}

func (l *loseAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if err == nil && req.Method == http.MethodPut && l.armed.CompareAndSwap(true, false) {
		_ = resp.Body.Close()
		return nil, errors.New("the answer was lost")
	}
	return resp, err
}

// TestARenewalWhoseAnswerWasLostIsNotTakenForAnotherProcess loses the
// answer to a renewal the server applied: the next renewal finds a version
// of the Lease the member did not see written, recognises its own renew
// time in it, and goes on.
func TestARenewalWhoseAnswerWasLostIsNotTakenForAnotherProcess(t *testing.T) {
	r := newRing(t, 0)
	cfg := env.Require(t).RESTConfig()
	lose := &loseAnswer{}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { lose.next = rt; return lose })
	c, err := client.New(cfg, client.Options{Scheme: testScheme()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := shard.New(c, c, shard.Options{
		Ring: ringName, Member: "op-0", Namespace: r.ns,
		Resources: []schema.GroupVersionKind{sampleGVK}, Clock: r.clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Renew(t.Context()); err != nil {
		t.Fatal(err)
	}
	lose.armed.Store(true)
	r.clock.Step(time.Second)
	if err := m.Renew(t.Context()); err == nil {
		t.Fatal("the renewal whose answer was lost reported success")
	}
	if lose.armed.Load() {
		t.Fatal("no update was sent")
	}
	r.clock.Step(time.Second)
	if err := m.Renew(t.Context()); err != nil {
		t.Fatalf("the renewal after a lost answer: %v", err)
	}
	if !m.Live() {
		t.Error("the member is not live after renewing")
	}
}
