package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// failureRecorder watches the custom resources of a namespace and keeps
// every distinct failure a user was shown, so a test can tell what was
// reported during a run, not only at its end.
type failureRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
	done chan struct{}
}

// failures says which failures a resource shows a user, one line each.
type failures func(u *unstructured.Unstructured) []string

// recordFailures records what shown says of the resources of kind gvk in
// ns until the test ends. It watches through c, which must not be faulted.
func recordFailures(t testing.TB, c client.WithWatch, ns string, gvk schema.GroupVersionKind, shown failures) *failureRecorder {
	t.Helper()
	r := &failureRecorder{seen: map[string]bool{}, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	newList := func() *unstructured.UnstructuredList {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		return l
	}
	w, err := c.Watch(ctx, newList(), client.InNamespace(ns))
	if err != nil {
		t.Fatalf("watching %s: %v", gvk.Kind, err)
	}
	go func() {
		defer close(r.done)
		rv := ""
		for {
			for ev := range w.ResultChan() {
				u, ok := ev.Object.(*unstructured.Unstructured)
				if !ok || ev.Type == watch.Error {
					continue
				}
				rv = u.GetResourceVersion()
				r.add(shown(u))
			}
			if ctx.Err() != nil {
				return
			}
			// the server ended the watch: go on from where it stopped
			if w, err = c.Watch(ctx, newList(), client.InNamespace(ns),
				&client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: rv}}); err != nil {
				return
			}
		}
	}()
	return r
}

func (r *failureRecorder) add(lines []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range lines {
		r.seen[l] = true
	}
}

// Seen returns every distinct failure observed, sorted.
func (r *failureRecorder) Seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.seen))
	for s := range r.seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// trueConditions shows the conditions of the given types that are true.
func trueConditions(types ...string) failures {
	return func(u *unstructured.Unstructured) []string {
		conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		var out []string
		for _, c := range conds {
			m, _ := c.(map[string]any)
			typ, _ := m["type"].(string)
			if m["status"] == "True" && slices.Contains(types, typ) {
				out = append(out, fmt.Sprintf("%s %s=True (%v): %v", u.GetName(), typ, m["reason"], m["message"]))
			}
		}
		return out
	}
}

// errorState shows a component in state Error with its Ready message.
func errorState(u *unstructured.Unstructured) []string {
	state, _, _ := unstructured.NestedString(u.Object, "status", "state")
	if state != "Error" {
		return nil
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == "Ready" {
			return []string{fmt.Sprintf("%s state Error (%v): %v", u.GetName(), m["reason"], m["message"])}
		}
	}
	return []string{u.GetName() + " state Error"}
}
