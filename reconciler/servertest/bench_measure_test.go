package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// writes splits the writes of a snapshot the way the benchmarks report
// them: writes of managed objects, status writes of the cluster
// resources, and events.
type writes struct {
	objects, status, events int
}

func writesOf(s apicount.Snapshot) writes {
	var w writes
	for k, n := range s {
		if !k.IsWrite() {
			continue
		}
		switch {
		case strings.HasPrefix(k.Resource, "events"):
			w.events += n
		case strings.HasPrefix(k.Resource, "sampleclusters.") && strings.HasSuffix(k.Resource, "/status"):
			w.status += n
		default:
			w.objects += n
		}
	}
	return w
}

// uncachedReads counts gets and lists: requests the cache did not answer.
// Watches are the cache's own and are not counted.
func uncachedReads(s apicount.Snapshot) int { return s.Verb("get") + s.Verb("list") }

// quietContext is the context of passes the benchmark drives: no logs.
func quietContext(b *testing.B) context.Context { return logr.NewContext(b.Context(), logr.Discard()) }

// passAll runs one pass of every named cluster, as a resync would, and
// returns how long the round took.
func (w *workload) passAll(b *testing.B, names []string) time.Duration {
	b.Helper()
	ctx := quietContext(b)
	start := time.Now()
	forEach(b, names, func(name string) error {
		_, err := w.op.r.Reconcile(ctx, ctrl.Request{NamespacedName: w.key(name)})
		return err
	})
	return time.Since(start)
}

// settle drives passes of the named clusters until a whole round writes
// nothing: from then on the clusters are quiet and a measurement starts
// from a known state. Writes made on the way are counted as usual.
func (w *workload) settle(b *testing.B, names []string) {
	b.Helper()
	var rounds atomic.Int32
	_, err := testkit.WaitFor(b.Context(), func(context.Context) (string, bool, error) {
		rounds.Add(1)
		before := w.op.count.Snapshot()
		w.passAll(b, names)
		d := w.op.count.Snapshot().Sub(before)
		return d.String(), d.Writes() == 0, nil
	}, settleTimeout(len(names)))
	if err != nil {
		b.Fatalf("the clusters do not settle after %d rounds: %v", rounds.Load(), err)
	}
}

// settleTimeout bounds the waits for n clusters to come to rest.
func settleTimeout(n int) time.Duration { return time.Minute + time.Duration(n)*time.Second }

// waitConverged waits until every cluster observed its generation and is
// available with every object applied and ready.
func (w *workload) waitConverged(b *testing.B, timeout time.Duration) {
	b.Helper()
	_, err := testkit.WaitFor(b.Context(), func(ctx context.Context) (string, bool, error) {
		list := &sampleClusterList{}
		if err := w.api.List(ctx, list, client.InNamespace(w.ns)); err != nil {
			return "", false, err
		}
		var pending []string
		for i := range list.Items {
			if why := notConverged(&list.Items[i]); why != "" {
				pending = append(pending, list.Items[i].Name+": "+why)
			}
		}
		if len(list.Items) != len(w.names) {
			pending = append(pending, fmt.Sprintf("%d of %d clusters exist", len(list.Items), len(w.names)))
		}
		return summary(pending), len(pending) == 0, nil
	}, timeout)
	if err != nil {
		b.Fatalf("the clusters did not converge: %v", err)
	}
}

// notConverged says why a cluster's status does not show it converged, or
// "".
func notConverged(cr *sampleCluster) string {
	st := cr.Status.ClusterStatus
	if st.ObservedGeneration != cr.Generation {
		return fmt.Sprintf("generation %d not observed (at %d)", cr.Generation, st.ObservedGeneration)
	}
	for _, want := range []struct {
		typ    string
		status bool
	}{
		{commonsv1alpha1.ConditionAvailable, true},
		{commonsv1alpha1.ConditionReconcileComplete, true},
		{commonsv1alpha1.ConditionProgressing, false},
		{commonsv1alpha1.ConditionOrphanCleanupPending, false},
		{commonsv1alpha1.ConditionDegraded, false},
	} {
		c := meta.FindStatusCondition(st.Conditions, want.typ)
		if c == nil || (c.Status == "True") != want.status {
			return fmt.Sprintf("%s is %v", want.typ, c)
		}
	}
	return ""
}

// summary keeps a timeout message short: the first few entries and the
// count.
func summary(pending []string) string {
	if len(pending) <= 3 {
		return strings.Join(pending, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(pending[:3], "; "), len(pending)-3)
}

// managedObjects sums the inventories of every cluster: the objects the
// reconciler applied and tracks.
func (w *workload) managedObjects(b *testing.B) int {
	b.Helper()
	list := &sampleClusterList{}
	if err := w.api.List(b.Context(), list, client.InNamespace(w.ns)); err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, cr := range list.Items {
		st := cr.Status.ClusterStatus
		n += st.Objects.Len()
		for _, r := range st.Roles {
			n += r.Objects.Len()
		}
		for _, g := range st.RoleGroups {
			n += g.Objects.Len()
		}
	}
	return n
}

// perCluster divides a count by the number of clusters.
func perCluster(n, clusters int) float64 { return float64(n) / float64(clusters) }
