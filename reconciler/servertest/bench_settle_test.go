package servertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
)

// waitSettled waits until the named clusters are at rest: each shows
// itself converged, its StatefulSets are at their spec with every pod
// ready and no pod on its way out, the operator went quiet, and then a
// pass of each writes nothing.
func (w *workload) waitSettled(b *testing.B, names []string) {
	b.Helper()
	_, err := testkit.WaitFor(b.Context(), func(ctx context.Context) (string, bool, error) {
		pending, err := w.unsettled(ctx, names)
		return summary(pending), err == nil && len(pending) == 0, err
	}, settleTimeout(len(names)))
	if err != nil {
		b.Fatalf("the clusters did not settle: %v", err)
	}
	w.waitQuiet(b)
	w.settle(b, names)
}

// quietWindow is how long the operator must make no request (beyond its
// watches) to count as idle: longer than its shortest requeue (a second,
// while its cache catches up with its own status write).
const quietWindow = 2 * time.Second

// waitQuiet waits until the operator has been idle for quietWindow, so
// the passes the benchmark drives next do not race passes of its own: two
// passes of one cluster at once would both act on the same change and
// inflate the counts.
func (w *workload) waitQuiet(b *testing.B) {
	b.Helper()
	last, since := w.op.count.Snapshot(), time.Now()
	_, err := testkit.WaitFor(b.Context(), func(context.Context) (string, bool, error) {
		now := w.op.count.Snapshot()
		if d := now.Sub(last); d.Writes()+uncachedReads(d) > 0 {
			last, since = now, time.Now()
		}
		idle := time.Since(since)
		return fmt.Sprintf("idle for %s", idle.Round(time.Millisecond)), idle >= quietWindow, nil
	}, settleTimeout(len(w.names)))
	if err != nil {
		b.Fatalf("the operator does not go quiet: %v", err)
	}
}

// unsettled lists what keeps the named clusters from being at rest.
func (w *workload) unsettled(ctx context.Context, names []string) ([]string, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	// A node that stopped reporting makes its pods unready: say so first.
	var pending []string
	nodes := &corev1.NodeList{}
	if err := w.api.List(ctx, nodes); err != nil {
		return nil, err
	}
	for _, n := range nodes.Items {
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady && c.Status != corev1.ConditionTrue {
				pending = append(pending, fmt.Sprintf("node %s: Ready %s (%s)", n.Name, c.Status, c.Message))
			}
		}
	}
	clusters := &sampleClusterList{}
	if err := w.api.List(ctx, clusters, client.InNamespace(w.ns)); err != nil {
		return nil, err
	}
	for i := range clusters.Items {
		cr := &clusters.Items[i]
		if why := notConverged(cr); want[cr.Name] && why != "" {
			pending = append(pending, cr.Name+": "+why)
		}
	}
	sets := &appsv1.StatefulSetList{}
	if err := w.api.List(ctx, sets, client.InNamespace(w.ns)); err != nil {
		return nil, err
	}
	replicas := map[string]int32{}
	for _, sts := range sets.Items {
		cluster := sts.Labels[commonsv1alpha1.LabelInstance]
		if !want[cluster] {
			continue
		}
		n := ptr.Deref(sts.Spec.Replicas, 1)
		replicas[cluster] += n
		s := sts.Status
		if s.ObservedGeneration != sts.Generation || s.Replicas != n || s.ReadyReplicas != n || s.UpdatedReplicas != n {
			pending = append(pending, fmt.Sprintf("StatefulSet %s: generation %d observed %d, %d/%d/%d of %d replicas",
				sts.Name, sts.Generation, s.ObservedGeneration, s.Replicas, s.ReadyReplicas, s.UpdatedReplicas, n))
		}
	}
	pods := &corev1.PodList{}
	if err := w.api.List(ctx, pods, client.InNamespace(w.ns)); err != nil {
		return nil, err
	}
	running := map[string]int32{}
	for _, p := range pods.Items {
		cluster := p.Labels[commonsv1alpha1.LabelInstance]
		if !want[cluster] {
			continue
		}
		if p.DeletionTimestamp != nil {
			pending = append(pending, "pod "+p.Name+" is terminating")
			continue
		}
		running[cluster]++
		if c := podCondition(&p, corev1.PodReady); c == nil || c.Status != corev1.ConditionTrue {
			pending = append(pending, fmt.Sprintf("pod %s not ready: %v", p.Name, c))
		}
	}
	for _, cluster := range names {
		if running[cluster] != replicas[cluster] {
			pending = append(pending, fmt.Sprintf("%s: %d pods for %d replicas", cluster, running[cluster], replicas[cluster]))
		}
	}
	return pending, nil
}

func podCondition(p *corev1.Pod, typ corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}
