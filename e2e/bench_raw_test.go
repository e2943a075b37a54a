package e2e_test

import (
	"context"
	"errors"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// rawCopies returns copies of the objects of kinds in ns that carry
// ownerKey (the operator's own), moved to namespace to, for the raw
// writer: without what the server assigned and without owner references
// (their owners are not in to), workloads at zero replicas (their pods
// would load the controllers the operator's measurement shares).
func rawCopies(ctx context.Context, c client.Reader, ns, to, ownerKey string, kinds []schema.GroupVersionKind) ([]*unstructured.Unstructured, error) {
	objs, err := ownedObjects(ctx, c, ns, ownerKey, kinds)
	if err != nil {
		return nil, err
	}
	out := make([]*unstructured.Unstructured, 0, len(objs))
	for i := range objs {
		cp := &objs[i] // ownedObjects' own copy
		cp.SetNamespace(to)
		cp.SetResourceVersion("")
		cp.SetUID("")
		cp.SetCreationTimestamp(metav1.Time{})
		cp.SetManagedFields(nil)
		cp.SetGeneration(0)
		cp.SetOwnerReferences(nil)
		delete(cp.Object, "status")
		switch cp.GetKind() {
		case "StatefulSet", "Deployment":
			_ = unstructured.SetNestedField(cp.Object, int64(0), "spec", "replicas")
		case "Service":
			unstructured.RemoveNestedField(cp.Object, "spec", "clusterIP")
			unstructured.RemoveNestedField(cp.Object, "spec", "clusterIPs")
		}
		out = append(out, cp)
	}
	return out, nil
}

// ownedObjects returns the objects of kinds in ns that carry ownerKey: an
// operator's own.
func ownedObjects(ctx context.Context, c client.Reader, ns, ownerKey string, kinds []schema.GroupVersionKind) ([]unstructured.Unstructured, error) {
	var out []unstructured.Unstructured
	for _, gvk := range kinds {
		objs, err := list(ctx, c, ns, gvk)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if _, ours := o.GetAnnotations()[ownerKey]; ours {
				out = append(out, o)
			}
		}
	}
	return out, nil
}

// rawCreate creates objs through c with concurrency creates in flight, the
// baseline a reconciler's cold converge is measured against: no reads, no
// bookkeeping, no waves, no status. It returns how long it took.
func rawCreate[O client.Object](ctx context.Context, c client.Client, objs []O, concurrency int) (time.Duration, error) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan O)
	)
	start := time.Now()
	for range concurrency {
		wg.Go(func() {
			for o := range next {
				if err := c.Create(ctx, o.DeepCopyObject().(client.Object)); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, o := range objs {
		next <- o
	}
	close(next)
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// How many of the resources under measurement the benchmarks create at
// once: enough for the operator not to wait for its next resource. One at
// a time, a cluster is created faster than the operator converges one,
// but a bundle of 20 objects is not (about 20 creates a second while the
// operator worked, which then waited for them).
const (
	clusterCreates = 1
	bundleCreates  = 8
)
