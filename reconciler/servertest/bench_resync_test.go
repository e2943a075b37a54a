package servertest_test

import (
	"maps"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

const mib = 1 << 20

// benchConverge reports what the operator spent from the creation of the
// clusters until every one converged and settled (pods ready, a pass
// writing nothing), beside the minimum: one create per managed object.
// Nothing runs in the loop: the figures are the workload's setup.
func (w *workload) benchConverge(b *testing.B) {
	for b.Loop() {
	}
	n := len(w.names)
	wr := writesOf(w.cold)
	b.ReportMetric(w.coldTime.Seconds(), "s-to-converge")
	b.ReportMetric(float64(wr.objects)/float64(w.objects), "object-writes/minimum")
	b.ReportMetric(perCluster(wr.objects, n), "object-writes/CR")
	b.ReportMetric(perCluster(w.objects, n), "minimum-writes/CR")
	b.ReportMetric(perCluster(wr.status, n), "status-writes/CR")
	b.ReportMetric(perCluster(wr.events, n), "events/CR")
	b.ReportMetric(perCluster(uncachedReads(w.cold), n), "uncached-reads/CR")
}

// benchHeap reports the heap the converged clusters cost the operator:
// HeapInuse after a full collection, minus the same figure measured after
// the manager started and before the first cluster existed, per 1,000
// managed objects. It covers everything the process keeps for them: the
// informer caches (StatefulSets and pods whole, the other kinds as
// metadata), the cluster resources with their inventories, the
// dependency cache, queues and metric series.
func (w *workload) benchHeap(b *testing.B) {
	var after uint64
	for b.Loop() {
		after = testkit.HeapInUse()
	}
	grown := float64(int64(after)-int64(w.heapBefore)) / mib
	b.ReportMetric(grown/(float64(w.objects)/1000), "heap-MiB/1k-objects")
	b.ReportMetric(float64(w.heapBefore)/mib, "heap-before-MiB")
	b.ReportMetric(float64(after)/mib, "heap-after-MiB")
	b.ReportMetric(float64(w.objects), "objects")
}

// benchNoOp runs a resync of every cluster (one pass each, as many at
// once as the controller's workers) with nothing to change, beside the
// naive create-or-update reconciler's pass over the same objects.
func (w *workload) benchNoOp(b *testing.B) {
	naive := w.naiveBaseline(b)
	var (
		op, base         = apicount.Snapshot{}, apicount.Snapshot{}
		opTime, baseTime time.Duration
		rounds           int
	)
	for b.Loop() {
		before := w.op.count.Snapshot()
		opTime += w.passAll(b, w.names)
		addInto(op, w.op.count.Snapshot().Sub(before))

		nb, changed := naive.count.Snapshot(), naive.changed.Load()
		baseTime += naive.passAll(b, w.names)
		addInto(base, naive.count.Snapshot().Sub(nb))
		if c := naive.changed.Load() - changed; c > 0 {
			b.Fatalf("the naive pass changed %d objects; it must rewrite them unchanged to be a fair baseline", c)
		}
		rounds++
	}
	passes := len(w.names) * rounds
	b.ReportMetric(perCluster(op.Writes(), passes), "writes/CR")
	b.ReportMetric(perCluster(uncachedReads(op), passes), "uncached-reads/CR")
	b.ReportMetric(perCluster(base.Writes(), passes), "naive-writes/CR")
	b.ReportMetric(perCluster(uncachedReads(base), passes), "naive-uncached-reads/CR")
	b.ReportMetric(float64(opTime.Milliseconds())/float64(passes), "ms/CR")
	b.ReportMetric(float64(baseTime.Milliseconds())/float64(passes), "naive-ms/CR")
	b.ReportMetric(opTime.Seconds()/baseTime.Seconds(), "time/naive")
}

// naiveBaseline returns the naive reconciler over the clusters' desired
// objects, recorded from the product's handler in one pass of every
// cluster. Its first pass fills its cache and is not measured: its first
// write of each object records its field ownership, which the reconciler
// under measurement then sees; both settle before anything is measured.
func (w *workload) naiveBaseline(b *testing.B) *naiveReconciler {
	b.Helper()
	if w.naive != nil {
		return w.naive
	}
	w.op.handler.on.Store(true)
	w.passAll(b, w.names)
	w.op.handler.on.Store(false)
	list := &sampleClusterList{}
	if err := w.api.List(b.Context(), list, client.InNamespace(w.ns)); err != nil {
		b.Fatal(err)
	}
	desired := map[string][]client.Object{}
	for i := range list.Items {
		objs, err := w.op.handler.desired(&list.Items[i])
		if err != nil {
			b.Fatal(err)
		}
		desired[list.Items[i].Name] = objs
	}
	w.naive = newNaiveReconciler(b, w, desired)
	w.naive.passAll(b, w.names)
	w.settle(b, w.names)
	return w.naive
}

// addInto adds the counts of d to s.
func addInto(s, d apicount.Snapshot) {
	for k, n := range maps.All(d) {
		s[k] += n
	}
}
