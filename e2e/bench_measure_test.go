package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// eventCounter counts the events a reconciler asks its recorder for, by
// the key under which the events API aggregates them (one Event object per
// key), so that the keys missing from the API server afterwards are the
// events the recorder dropped.
type eventCounter struct {
	mu    sync.Mutex
	asked map[string]int
}

func newEventCounter() *eventCounter { return &eventCounter{asked: map[string]int{}} }

// countingManager hands out recorders that count.
type countingManager struct {
	manager.Manager
	events *eventCounter
}

// GetEventRecorder returns the manager's recorder, counted.
func (m countingManager) GetEventRecorder(name string) recorder.EventRecorder {
	return &countingRecorder{EventRecorder: m.Manager.GetEventRecorder(name), counter: m.events, controller: name}
}

type countingRecorder struct {
	recorder.EventRecorder
	counter    *eventCounter
	controller string
}

func (r *countingRecorder) Eventf(regarding, related k8sruntime.Object, eventtype, reason, action, note string, args ...any) {
	r.counter.add(eventKey(r.controller, regarding, related, eventtype, reason, action))
	r.EventRecorder.Eventf(regarding, related, eventtype, reason, action, note, args...)
}

func (r *countingRecorder) AnnotatedEventf(regarding, related k8sruntime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...any) {
	r.counter.add(eventKey(r.controller, regarding, related, eventtype, reason, action))
	r.EventRecorder.AnnotatedEventf(regarding, related, annotations, eventtype, reason, action, note, args...)
}

func (c *eventCounter) add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked[key]++
}

// keys returns the distinct keys asked for.
func (c *eventCounter) keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.asked))
	for k := range c.asked {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// total returns how many events were asked for.
func (c *eventCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.asked {
		n += v
	}
	return n
}

// eventKey is the aggregation key of an event: controller, type, reason,
// action, regarding and related objects.
func eventKey(controller string, regarding, related k8sruntime.Object, eventtype, reason, action string) string {
	ref := func(o k8sruntime.Object) string {
		if r, ok := o.(*corev1.ObjectReference); ok {
			return string(r.UID)
		}
		if o == nil {
			return ""
		}
		m, err := meta.Accessor(o)
		if err != nil {
			return "?"
		}
		return string(m.GetUID())
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s", controller, eventtype, reason, action, ref(regarding), ref(related))
}

// storedEventKey is eventKey of an Event the API server holds.
func storedEventKey(e *eventsv1.Event) string {
	related := ""
	if e.Related != nil {
		related = string(e.Related.UID)
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s", e.ReportingController, e.Type, e.Reason, e.Action, e.Regarding.UID, related)
}

// droppedEvents waits (up to a deadline) for every distinct event asked
// for to reach the API server in ns, and returns how many never did.
func droppedEvents(ctx context.Context, c client.Reader, ns string, counter *eventCounter) (int, error) {
	want := counter.keys()
	missing, err := testkit.WaitFor(ctx, func(ctx context.Context) (int, bool, error) {
		var list eventsv1.EventList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return 0, false, err
		}
		stored := map[string]bool{}
		for i := range list.Items {
			stored[storedEventKey(&list.Items[i])] = true
		}
		n := 0
		for _, k := range want {
			if !stored[k] {
				n++
			}
		}
		return n, n == 0, nil
	}, 30*time.Second)
	var te *testkit.TimeoutError
	if err != nil && !asTimeout(err, &te) {
		return 0, err
	}
	return missing, nil
}

// stepCost is what one measured step cost the operator.
type stepCost struct {
	elapsed time.Duration
	delta   apicount.Snapshot
}

// measure runs step and returns its time and the requests counter saw.
func measure(counter *apicount.Counter, step func() error) (stepCost, error) {
	before := counter.Snapshot()
	start := time.Now()
	err := step()
	return stepCost{elapsed: time.Since(start), delta: counter.Snapshot().Sub(before)}, err
}

// reads is the number of get and list requests: reads that did not come
// from the cache (watches feed the cache and are not counted).
func reads(s apicount.Snapshot) int { return s.Verb("get") + s.Verb("list") - discovery(s) }

// discovery is the number of get requests to non-resource paths.
func discovery(s apicount.Snapshot) int {
	n := 0
	for k, v := range s {
		if (k.Verb == "get" || k.Verb == "list") && len(k.Resource) > 0 && k.Resource[0] == '/' {
			n += v
		}
	}
	return n
}

// objectWrites is the number of writes of a run to resources other than
// events and leases.
func objectWrites(ws []crash.Write) int {
	n := 0
	for _, w := range ws {
		if crash.DefaultCounts(w.Verb, w.Resource) {
			n++
		}
	}
	return n
}

// objectRequests leaves events and leases out of s: what remains are the
// requests about the objects themselves.
func objectRequests(s apicount.Snapshot) apicount.Snapshot {
	out := apicount.Snapshot{}
	for k, v := range s {
		switch k.Resource {
		case "events", "events.events.k8s.io", "leases.coordination.k8s.io":
			continue
		}
		out[k] = v
	}
	return out
}
