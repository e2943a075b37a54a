package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// conditionRecorder watches the cluster resources of a namespace and keeps
// every distinct condition that was ever true of the given types, so a
// test can tell what a user saw during a run, not only at its end.
type conditionRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
	done chan struct{}
}

// recordConditions starts recording the conditions of types in ns until
// the test ends. It watches through c, which must not be faulted.
func recordConditions(t *testing.T, c client.WithWatch, ns string, types ...string) *conditionRecorder {
	t.Helper()
	r := &conditionRecorder{seen: map[string]bool{}, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	w, err := c.Watch(ctx, &samplev1alpha1.SampleClusterList{}, client.InNamespace(ns))
	if err != nil {
		t.Fatalf("watching the cluster resources: %v", err)
	}
	go func() {
		defer close(r.done)
		rv := ""
		for {
			for ev := range w.ResultChan() {
				cr, ok := ev.Object.(*samplev1alpha1.SampleCluster)
				if !ok || ev.Type == watch.Error {
					continue
				}
				rv = cr.ResourceVersion
				r.observe(cr, types)
			}
			if ctx.Err() != nil {
				return
			}
			// the server ended the watch: go on from where it stopped
			if w, err = c.Watch(ctx, &samplev1alpha1.SampleClusterList{}, client.InNamespace(ns),
				&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: rv}}); err != nil {
				return
			}
		}
	}()
	return r
}

func (r *conditionRecorder) observe(cr *samplev1alpha1.SampleCluster, types []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range cr.Status.Conditions {
		if c.Status == metav1.ConditionTrue && slices.Contains(types, c.Type) {
			r.seen[fmt.Sprintf("%s %s=True (%s): %s", cr.Name, c.Type, c.Reason, c.Message)] = true
		}
	}
}

// Seen returns every distinct true condition observed, sorted.
func (r *conditionRecorder) Seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.seen))
	for s := range r.seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
