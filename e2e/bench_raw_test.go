package e2e_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// rawCopies returns copies of the objects of kinds in ns that carry
// ownerKey (the operator's own), for the raw writer to move to a
// namespace of its own: without what the server assigned (a headless
// Service stays headless: a ClusterIP allocated for each once took the
// raw writer of the products three times as long), without owner
// references (their owners are not in that namespace), workloads at zero
// replicas (their pods would load the controllers the operator's
// measurement shares).
func rawCopies(ctx context.Context, c client.Reader, ns, ownerKey string, kinds []schema.GroupVersionKind) ([]*unstructured.Unstructured, error) {
	objs, err := ownedObjects(ctx, c, ns, ownerKey, kinds)
	if err != nil {
		return nil, err
	}
	out := make([]*unstructured.Unstructured, 0, len(objs))
	for i := range objs {
		cp := &objs[i] // ownedObjects' own copy
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
			// allocated again, unless headless
			if ip, _, _ := unstructured.NestedString(cp.Object, "spec", "clusterIP"); ip != corev1.ClusterIPNone {
				unstructured.RemoveNestedField(cp.Object, "spec", "clusterIP")
			}
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

// rawRounds is how many times the raw writer creates the workload's
// objects, each time into a namespace of its own that is gone before the
// next round starts; the median round is the baseline. A single round
// moved by a third between identical runs minutes apart.
const rawRounds = 3

// referenceWorkers is how many creates the reference raw writer has in
// flight: four workers, each creating one object after the other, the
// writer the resource-level goals (e2e/README.md, "Goals") are stated
// against. The other raw writer has as many creates in flight as the
// operator may have, a stricter baseline on a machine with cores to spare.
const referenceWorkers = 4

// rawBaseline measures the raw writer on copies of the objects of kinds
// the operator called name made in ns, read once: with concurrency
// creates in flight, then with referenceWorkers, and returns each one's
// median round. A non-empty profiled records the CPU profiles of the
// first writer's second round (CPUProfileEnv), seconds long, named
// profiled-raw. Like the object engine, which creates a missing object
// with a create and applies only changes to existing ones, it creates.
func rawBaseline(b *testing.B, cp *controlplane.ControlPlane, ns, name string, kinds []schema.GroupVersionKind, concurrency int, profiled string, seconds int) (median, reference time.Duration) {
	b.Helper()
	ctx := b.Context()
	raw, err := client.New(cp.RESTConfig(), client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	if err != nil {
		b.Fatal(err)
	}
	copies, err := rawCopies(ctx, cp.Client, ns, name+"/"+apply.AnnotationOwnerID, kinds)
	if err != nil {
		b.Fatal(err)
	}
	run := func(inFlight int, profile bool) time.Duration {
		var rounds []time.Duration
		for i := range rawRounds {
			stop := func() {}
			if i == 1 && profile && profiled != "" {
				stop = cpuWindow(b, cp, profiled+"-raw", seconds)
			}
			to := benchNamespace(b, cp.Client)
			for _, o := range copies {
				o.SetNamespace(to)
			}
			d, err := rawCreate(ctx, raw, copies, inFlight)
			if err != nil {
				b.Fatal(err)
			}
			rounds = append(rounds, d)
			stop()
			if err := dropNamespace(ctx, cp.Client, to); err != nil {
				b.Fatalf("namespace %s: %v", to, err)
			}
		}
		b.Logf("raw writer, %d objects, %d in flight: rounds %v", len(copies), inFlight, rounds)
		m, _ := medianMax(rounds)
		return m
	}
	return run(concurrency, true), run(referenceWorkers, false)
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
