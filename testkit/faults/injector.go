package faults

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Options configures an Injector.
type Options struct {
	// Seed seeds the random source. The same seed and the same sequence of
	// requests inject the same faults.
	Seed uint64
	// Rules are tried in order for each request; each matching rule draws
	// once, and the first whose draw hits injects its fault.
	Rules []Rule
}

// Injection records one injected fault.
type Injection struct {
	// Request is the 1-based number of the request among all requests the
	// injector saw.
	Request int
	// Fault is what was injected.
	Fault Fault
	// Verb and Resource identify the request (see Rule).
	Verb, Resource string
	// CutAfter is when a WatchCut ends the watch it let through; zero for
	// every other fault.
	CutAfter time.Duration
}

// Count is the number of faults injected for one fault, verb and resource.
type Count struct {
	Fault          Fault
	Verb, Resource string
	N              int
}

// Injector decides, request by request, whether to inject a fault. It is
// safe for concurrent use; with concurrent requests the order, and so the
// faults, depend on scheduling.
type Injector struct {
	mu       sync.Mutex
	rng      *rand.Rand
	rules    []Rule
	forced   []int // per rule, how many requests First has failed so far
	requests int
	history  []Injection
	enabled  bool
}

// New validates the rules and returns an enabled Injector.
func New(opts Options) (*Injector, error) {
	var errs []error
	for i, r := range opts.Rules {
		if err := r.validate(); err != nil {
			errs = append(errs, fmt.Errorf("rules[%d]: %w", i, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Injector{
		rng:     rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)),
		rules:   slices.Clone(opts.Rules),
		forced:  make([]int, len(opts.Rules)),
		enabled: true,
	}, nil
}

// SetEnabled turns injection on or off, e.g. to set up a test's objects
// without faults. A disabled injector neither counts nor draws.
func (i *Injector) SetEnabled(on bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.enabled = on
}

// decide returns the rule to inject for a request, or nil. For a WatchCut
// it also returns when to cut, drawn from the same source.
func (i *Injector) decide(verb, resource string) (*Rule, time.Duration) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if !i.enabled {
		return nil, 0
	}
	i.requests++
	for idx := range i.rules {
		r := &i.rules[idx]
		if !r.matches(verb, resource) {
			continue
		}
		hit := i.forced[idx] < r.First
		if hit {
			i.forced[idx]++
		} else {
			hit = i.rng.Float64() < r.Rate
		}
		if hit {
			var cut time.Duration
			if r.Fault == WatchCut {
				cut = r.drawCut(i.rng.Float64())
			}
			i.history = append(i.history, Injection{Request: i.requests, Fault: r.Fault, Verb: verb, Resource: resource, CutAfter: cut})
			return r, cut
		}
	}
	return nil, 0
}

// History returns every injection in order.
func (i *Injector) History() []Injection {
	i.mu.Lock()
	defer i.mu.Unlock()
	return slices.Clone(i.history)
}

// Total returns the number of faults injected.
func (i *Injector) Total() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return len(i.history)
}

// Counts returns the injected faults per fault, verb and resource, sorted.
func (i *Injector) Counts() []Count {
	i.mu.Lock()
	defer i.mu.Unlock()
	idx := map[Count]int{}
	for _, h := range i.history {
		idx[Count{Fault: h.Fault, Verb: h.Verb, Resource: h.Resource}]++
	}
	out := make([]Count, 0, len(idx))
	for k, n := range idx {
		k.N = n
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Count) int {
		return cmp.Or(cmp.Compare(a.Fault, b.Fault), cmp.Compare(a.Verb, b.Verb), cmp.Compare(a.Resource, b.Resource))
	})
	return out
}

// statusError builds the API error a rule injects for a request.
func statusError(r *Rule, resource, name string) *apierrors.StatusError {
	const msg = "fault injected by testkit/faults"
	var err *apierrors.StatusError
	switch r.Fault {
	case Conflict:
		err = apierrors.NewConflict(groupResource(resource), name, errors.New(msg))
	case TooManyRequests:
		err = apierrors.NewTooManyRequests(msg, r.retryAfterSeconds())
	case InternalError:
		err = apierrors.NewInternalError(errors.New(msg))
	case ServiceUnavailable:
		err = apierrors.NewServiceUnavailable(msg)
		if s := r.retryAfterSeconds(); s > 0 {
			err.ErrStatus.Details = &metav1.StatusDetails{RetryAfterSeconds: int32(s)}
		}
	default: // Timeout; WatchCut never gets here.
		err = apierrors.NewTimeoutError(msg, r.retryAfterSeconds())
	}
	return err
}

// groupResource parses "<resource>[.<group>][/<sub>]".
func groupResource(resource string) schema.GroupResource {
	resource, _, _ = strings.Cut(resource, "/")
	res, group, _ := strings.Cut(resource, ".")
	return schema.GroupResource{Group: group, Resource: res}
}
