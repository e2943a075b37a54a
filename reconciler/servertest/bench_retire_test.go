package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// retiredRole and retiredGroup name the role group every cluster gives up.
const (
	retiredRole  = "server"
	retiredGroup = "b"
)

// benchRetire removes one role group from every cluster at once and counts
// the operator's writes until every group is reclaimed and the clusters
// settled, beside the minimum: one write scaling the StatefulSet to zero,
// then one DELETE per object the group's inventory holds.
func (w *workload) benchRetire(b *testing.B) {
	retired := false
	for b.Loop() {
		if retired {
			// Another iteration: put the group back first.
			w.changeAll(b, func(cr *sampleCluster) {
				cr.Spec.Roles[retiredRole].RoleGroups[retiredGroup] = commonsv1alpha1.RoleGroupSpec{Replicas: ptr.To[int32](1)}
			})
			w.waitConverged(b, convergeTimeout(len(w.names)))
			w.waitSettled(b, w.names)
		}
		minimum := w.minimalRetireWrites(b)
		before, start := w.op.count.Snapshot(), time.Now()
		w.changeAll(b, func(cr *sampleCluster) { delete(cr.Spec.Roles[retiredRole].RoleGroups, retiredGroup) })
		w.waitRetired(b)
		w.waitSettled(b, w.names)
		elapsed, d := time.Since(start), w.op.count.Snapshot().Sub(before)
		retired = true
		w.reportRetire(b, d, minimum, elapsed)
	}
}

func (w *workload) reportRetire(b *testing.B, d apicount.Snapshot, minimum int, elapsed time.Duration) {
	groups := len(w.names)
	wr := writesOf(d)
	var scale int
	for k, n := range d {
		if strings.HasPrefix(k.Resource, "statefulsets.apps") && (k.Verb == "update" || k.Verb == "patch") {
			scale += n
		}
	}
	b.ReportMetric(float64(wr.objects)/float64(minimum), "writes/minimum")
	b.ReportMetric(perCluster(wr.objects, groups), "object-writes/group")
	b.ReportMetric(perCluster(minimum, groups), "minimum-writes/group")
	b.ReportMetric(perCluster(d.Verb("delete"), groups), "deletes/group")
	b.ReportMetric(perCluster(scale, groups), "statefulset-writes/group")
	b.ReportMetric(perCluster(wr.status, groups), "status-writes/group")
	b.ReportMetric(perCluster(wr.events, groups), "events/group")
	b.ReportMetric(perCluster(uncachedReads(d), groups), "uncached-reads/group")
	b.ReportMetric(elapsed.Seconds(), "s-to-retire-all")
}

// minimalRetireWrites is, over every cluster, one scale-down plus one
// DELETE per object the retired group's inventory holds.
func (w *workload) minimalRetireWrites(b *testing.B) int {
	b.Helper()
	list := &sampleClusterList{}
	if err := w.api.List(b.Context(), list, client.InNamespace(w.ns)); err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, cr := range list.Items {
		found := false
		for _, g := range cr.Status.RoleGroups {
			if g.Role == retiredRole && g.Group == retiredGroup {
				n += 1 + g.Objects.Len()
				found = true
			}
		}
		if !found {
			b.Fatalf("cluster %s has no %s/%s in its status", cr.Name, retiredRole, retiredGroup)
		}
	}
	return n
}

// changeAll changes the spec of every cluster, retrying conflicts with the
// operator's status writes.
func (w *workload) changeAll(b *testing.B, change func(*sampleCluster)) {
	b.Helper()
	forEach(b, w.names, func(name string) error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cr := &sampleCluster{}
			if err := w.api.Get(b.Context(), w.key(name), cr); err != nil {
				return err
			}
			change(cr)
			return w.api.Update(b.Context(), cr)
		})
	})
}

// waitRetired waits until no cluster's ledger holds the retired group and
// nothing of it is left.
func (w *workload) waitRetired(b *testing.B) {
	b.Helper()
	selector := client.MatchingLabels{commonsv1alpha1.LabelComponent: retiredRole, commonsv1alpha1.LabelRoleGroup: retiredGroup}
	_, err := testkit.WaitFor(b.Context(), func(ctx context.Context) (string, bool, error) {
		list := &sampleClusterList{}
		if err := w.api.List(ctx, list, client.InNamespace(w.ns)); err != nil {
			return "", false, err
		}
		var pending []string
		for _, cr := range list.Items {
			for _, g := range cr.Status.RoleGroups {
				if g.Role == retiredRole && g.Group == retiredGroup {
					pending = append(pending, cr.Name+" still lists it")
				}
			}
		}
		for _, l := range []client.ObjectList{&appsv1.StatefulSetList{}, &corev1.ConfigMapList{}, &corev1.ServiceList{}} {
			if err := w.api.List(ctx, l, client.InNamespace(w.ns), selector); err != nil {
				return "", false, err
			}
			if n := meta.LenList(l); n > 0 {
				pending = append(pending, fmt.Sprintf("%d %T items left", n, l))
			}
		}
		return summary(pending), len(pending) == 0, nil
	}, settleTimeout(len(w.names)))
	if err != nil {
		b.Fatalf("the role groups were not retired: %v", err)
	}
}
