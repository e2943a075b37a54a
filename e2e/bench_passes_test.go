package e2e_test

import (
	"context"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/shard"
)

// passCounter counts the passes sharded replicas ran, per replica and per
// resource: a pass runs when the replica's member said it owns the
// resource at the pass's start.
type passCounter struct {
	mu sync.Mutex
	by map[string]map[string]int // replica → resource → passes
}

func newPassCounter() *passCounter { return &passCounter{by: map[string]map[string]int{}} }

func (p *passCounter) add(replica, resource string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.by[replica] == nil {
		p.by[replica] = map[string]int{}
	}
	p.by[replica][resource]++
}

// perReplica returns the passes of each replica.
func (p *passCounter) perReplica() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for r, res := range p.by {
		for _, n := range res {
			out[r] += n
		}
	}
	return out
}

// shared returns how many resources got passes from more than one
// replica: resources that moved.
func (p *passCounter) shared() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	replicas := map[string]int{}
	for _, res := range p.by {
		for name := range res {
			replicas[name]++
		}
	}
	n := 0
	for _, c := range replicas {
		if c > 1 {
			n++
		}
	}
	return n
}

// countedMember is a shard member that counts the passes it lets run.
type countedMember struct {
	*shard.Member
	passes *passCounter
}

var _ reconciler.Sharding = countedMember{}

// Owns implements reconciler.Sharding, counting each pass it allows.
func (c countedMember) Owns(ctx context.Context, obj client.Object) (bool, error) {
	owns, err := c.Member.Owns(ctx, obj)
	if owns && err == nil {
		c.passes.add(c.Name(), obj.GetNamespace()+"/"+obj.GetName())
	}
	return owns, err
}

// sharding returns m, counting its passes in passes unless that is nil.
func sharding(m *shard.Member, passes *passCounter) reconciler.Sharding {
	if passes == nil {
		return m
	}
	return countedMember{Member: m, passes: passes}
}
