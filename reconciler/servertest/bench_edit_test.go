package servertest_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// liveEdit is a change someone makes by hand (kubectl edit) to an object
// the reconciler manages: the server/a role group's object of a cluster.
type liveEdit struct {
	newObject func() client.Object
	newList   func() client.ObjectList
	// edit changes the object as the user does.
	edit func(client.Object)
	// reverted reports whether got is back to the state of orig.
	reverted func(orig, got client.Object) bool
}

// statefulSetReplicasEdit scales the StatefulSet from 1 to 3 replicas: its
// controller starts pods at once, so a slow revert costs pods.
var statefulSetReplicasEdit = liveEdit{
	newObject: func() client.Object { return &appsv1.StatefulSet{} },
	newList:   func() client.ObjectList { return &appsv1.StatefulSetList{} },
	edit:      func(o client.Object) { o.(*appsv1.StatefulSet).Spec.Replicas = ptr.To[int32](3) },
	reverted: func(orig, got client.Object) bool {
		return ptr.Deref(got.(*appsv1.StatefulSet).Spec.Replicas, -1) == ptr.Deref(orig.(*appsv1.StatefulSet).Spec.Replicas, -2)
	},
}

// configMapDataEdit replaces a config file of the ConfigMap.
var configMapDataEdit = liveEdit{
	newObject: func() client.Object { return &corev1.ConfigMap{} },
	newList:   func() client.ObjectList { return &corev1.ConfigMapList{} },
	edit:      func(o client.Object) { o.(*corev1.ConfigMap).Data["server.properties"] = "tampered=true\n" },
	reverted: func(orig, got client.Object) bool {
		return equality.Semantic.DeepEqual(orig.(*corev1.ConfigMap).Data, got.(*corev1.ConfigMap).Data)
	},
}

// editsPerRound is how many clusters an iteration edits, one after the
// other, so that the latency figures have a few samples.
const editsPerRound = 5

// benchEdit edits one object of editsPerRound clusters per iteration and
// measures, through a watch, the time from the accepted edit to the
// reverting write, then the requests the operator made until the cluster
// settled again. The baseline is the naive reconciler's pass of the
// edited cluster, which is how it reverts an edit.
func (w *workload) benchEdit(b *testing.B, e liveEdit) {
	naive := w.naiveBaseline(b)
	var (
		latencies         []time.Duration
		op, base          = apicount.Snapshot{}, apicount.Snapshot{}
		edits, clusterIdx int
	)
	for b.Loop() {
		for range editsPerRound {
			// Every edit hits a cluster of its own (the list wraps around
			// below editsPerRound clusters).
			cluster := w.names[clusterIdx%len(w.names)]
			clusterIdx += max(1, len(w.names)/(3*editsPerRound))
			latency, d := w.editAndRevert(b, e, cluster)
			latencies = append(latencies, latency)
			addInto(op, d)

			nb := naive.count.Snapshot()
			if err := naive.reconcile(b.Context(), cluster); err != nil {
				b.Fatal(err)
			}
			addInto(base, naive.count.Snapshot().Sub(nb))
			edits++
		}
	}
	var sum time.Duration
	for _, l := range latencies {
		sum += l
	}
	wr := writesOf(op)
	b.ReportMetric(float64(sum.Milliseconds())/float64(edits), "revert-ms")
	b.ReportMetric(float64(slices.Max(latencies).Milliseconds()), "max-revert-ms")
	b.ReportMetric(perCluster(wr.objects, edits), "object-writes/edit")
	b.ReportMetric(perCluster(wr.status, edits), "status-writes/edit")
	b.ReportMetric(perCluster(wr.events, edits), "events/edit")
	b.ReportMetric(perCluster(uncachedReads(op), edits), "uncached-reads/edit")
	b.ReportMetric(perCluster(base.Writes(), edits), "naive-writes/edit")
}

// editAndRevert makes e on the cluster's server/a object, waits for the
// write that reverts it and for the cluster to settle, and returns the
// revert latency and the operator's requests from the edit on.
func (w *workload) editAndRevert(b *testing.B, e liveEdit, cluster string) (time.Duration, apicount.Snapshot) {
	b.Helper()
	ctx := b.Context()
	key := w.key(builders.RoleGroupResourceName(cluster, "server", "a"))
	orig := e.newObject()
	if err := w.api.Get(ctx, key, orig); err != nil {
		b.Fatal(err)
	}
	before := w.op.count.Snapshot()
	edited := orig.DeepCopyObject().(client.Object)
	e.edit(edited)
	if err := w.api.Update(ctx, edited); err != nil {
		b.Fatal(err)
	}
	accepted := time.Now()
	reverted, err := w.waitReverted(ctx, e, key, orig, edited.GetResourceVersion())
	if err != nil {
		b.Fatal(err)
	}
	w.waitSettled(b, []string{cluster})
	return max(reverted.Sub(accepted), time.Nanosecond), w.op.count.Snapshot().Sub(before)
}

// waitReverted watches the object from the edit's resourceVersion on and
// returns when a version back at orig's state arrived. A watch the server
// ends is resumed from the object's current version.
func (w *workload) waitReverted(ctx context.Context, e liveEdit, key client.ObjectKey, orig client.Object, from string) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		watch, err := w.api.Watch(ctx, e.newList(), client.InNamespace(key.Namespace), &client.ListOptions{Raw: &metav1.ListOptions{
			FieldSelector: "metadata.name=" + key.Name, ResourceVersion: from,
		}})
		if err != nil {
			return time.Time{}, fmt.Errorf("watching %s: %w", key, err)
		}
		for ev := range watch.ResultChan() {
			got, ok := ev.Object.(client.Object)
			if !ok {
				break // an error event (the version expired, say): read afresh
			}
			from = got.GetResourceVersion()
			if e.reverted(orig, got) {
				watch.Stop()
				return time.Now(), nil
			}
		}
		watch.Stop()
		if ctx.Err() != nil {
			return time.Time{}, fmt.Errorf("%s was not reverted within a minute", key)
		}
		// The watch ended: resume from what the object is now.
		now := e.newObject()
		if err := w.api.Get(ctx, key, now); err != nil {
			return time.Time{}, err
		}
		if now.GetResourceVersion() != from && e.reverted(orig, now) {
			return time.Now(), nil
		}
		from = now.GetResourceVersion()
	}
}
