package servertest_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// journal records every pass the members run, in one order for the whole
// process: a pass is the interval between its begin and end entries.
type journal struct {
	mu      sync.Mutex
	seq     int
	running map[string]string // resource → member with a pass running
	entries map[string][]entry
	overlap []string
}

type entry struct {
	seq    int
	member string
	begin  bool
}

func newJournal() *journal {
	return &journal{running: map[string]string{}, entries: map[string][]entry{}}
}

// begin records the start of member's pass over resource and returns the
// function recording its end.
func (j *journal) begin(member, resource string) func() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if other, ok := j.running[resource]; ok && other != member {
		j.overlap = append(j.overlap, resource+": "+other+" and "+member)
	}
	j.running[resource] = member
	j.seq++
	j.entries[resource] = append(j.entries[resource], entry{seq: j.seq, member: member, begin: true})
	return func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		if j.running[resource] == member {
			delete(j.running, resource)
		}
		j.seq++
		j.entries[resource] = append(j.entries[resource], entry{seq: j.seq, member: member})
	}
}

// owners returns, per resource, the members that ran passes in the order
// of their first pass after from (a journal position, see mark).
func (j *journal) owners(from int) map[string][]string {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := map[string][]string{}
	for res, es := range j.entries {
		for _, e := range es {
			if e.seq > from && !slices.Contains(out[res], e.member) {
				out[res] = append(out[res], e.member)
			}
		}
	}
	return out
}

// handedOver reports whether every pass of from over resource ended
// before the first pass of to began.
func (j *journal) handedOver(resource, from, to string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	lastFrom, firstTo := 0, 0
	for _, e := range j.entries[resource] {
		if e.member == from {
			lastFrom = e.seq
		}
		if e.member == to && firstTo == 0 {
			firstTo = e.seq
		}
	}
	return firstTo != 0 && lastFrom < firstTo
}

func (j *journal) mark() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq
}

func (j *journal) overlaps() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.overlap)
}

// labelState is a resource's assignment as one watch event showed it.
type labelState struct {
	Owner, Drain string
}

// history records, from a watch, every assignment state each resource went
// through, consecutive equal states folded into one.
type history struct {
	mu     sync.Mutex
	states map[string][]labelState
}

// watchHistory records the assignments of the namespace's SampleClusters
// from now until the test ends, starting with their current state.
func watchHistory(t *testing.T, c client.WithWatch, ns, shardKey, drainKey string) *history {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := c.Watch(ctx, &samplev1alpha1.SampleClusterList{}, client.InNamespace(ns))
	if err != nil {
		cancel()
		t.Fatalf("watching SampleClusters: %v", err)
	}
	h := &history{states: map[string][]labelState{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			obj, ok := ev.Object.(client.Object)
			if !ok {
				continue
			}
			s := labelState{Owner: obj.GetLabels()[shardKey], Drain: obj.GetLabels()[drainKey]}
			h.mu.Lock()
			if prev := h.states[obj.GetName()]; len(prev) == 0 || prev[len(prev)-1] != s {
				h.states[obj.GetName()] = append(prev, s)
			}
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		w.Stop()
		cancel()
		<-done
	})
	return h
}

func (h *history) of(name string) []labelState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.states[name])
}
