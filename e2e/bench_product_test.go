package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// scaleShape is each cluster of workload (a): two roles of two role groups,
// one replica each.
var scaleShape = map[string]map[string]int32{"server": {"a": 1, "b": 1}, "gateway": {"a": 1, "b": 1}}

// scaleShapeOf is scaleShape with replicas in every role group: with zero
// the operator's StatefulSets start no pods, as the raw writer's copies
// do not.
func scaleShapeOf(replicas int32) map[string]map[string]int32 {
	out := make(map[string]map[string]int32, len(scaleShape))
	for role, groups := range scaleShape {
		out[role] = make(map[string]int32, len(groups))
		for g := range groups {
			out[role][g] = replicas
		}
	}
	return out
}

// productResources are the resources the product reconciler creates.
var productResources = []string{"serviceaccounts", "configmaps", "services", "statefulsets.apps", "poddisruptionbudgets.policy"}

// benchProductProcess is the product operator under measurement: no
// periodic pass (the benchmark runs the resync itself), a fast drain poll,
// and the default progress interval (the scenarios' two seconds would
// measure a pass rate no operator runs with).
func benchProductProcess(ns string) func(o *benchOperator) func(ctx context.Context, cfg *rest.Config) error {
	return func(o *benchOperator) func(ctx context.Context, cfg *rest.Config) error {
		return func(ctx context.Context, cfg *rest.Config) error {
			rc := productConfig()
			rc.HealthCheckInterval = -1
			rc.ProgressInterval = 0
			rc.Orphan.DrainPollInterval = 500 * time.Millisecond
			rc.Namespaces = []string{ns}
			rc.MaxConcurrentReconciles = productWorkers
			r, err := reconciler.New(rc)
			if err != nil {
				return err
			}
			cacheOpts, clientOpts := r.ManagerOptions()
			mgr, err := o.manager(cfg, ns, cacheOpts, clientOpts)
			if err != nil {
				return err
			}
			if err := r.SetupWithManager(ctx, mgr); err != nil {
				return err
			}
			o.setup(func(ctx context.Context, req ctrl.Request) error {
				_, err := r.Reconcile(ctx, req)
				return err
			}, mgr.GetCache().WaitForCacheSync)
			return mgr.Start(ctx)
		}
	}
}

// benchProducts measures workload (a) with n clusters of replicas pods
// per role group.
func benchProducts(b *testing.B, cp *controlplane.ControlPlane, n int, replicas int32) scaleRow {
	ctx := b.Context()
	ns := benchNamespace(b, cp.Client)
	o := startBenchOperator(b, cp, benchProductProcess(ns))
	o.serving(b, cp.Client, newCluster(ns, "probe", map[string]map[string]int32{"server": {"a": 0}}),
		func(obj client.Object) bool { return len(obj.(*sampleCluster).Status.Conditions) > 0 },
		productKinds, productName+"/"+apply.AnnotationOwnerID)
	heapBefore := readHeap()
	heapProfile(b, "clusters-before")
	row := scaleRow{workload: "(a) product clusters"}
	if replicas != 1 {
		row.workload = fmt.Sprintf("(a) product clusters, %d replicas per group", replicas)
	}

	// cold converge
	coldBefore, passesBefore := o.counter.Snapshot(), reconciles(productName)
	coldProfile := cpuWindow(b, cp, "products-cold", 20)
	cpuBefore, start := processCPU(b), time.Now()
	names := make([]string, n)
	clusters := make([]client.Object, n)
	for i := range n {
		names[i] = clusterName(i)
		clusters[i] = newCluster(ns, names[i], scaleShapeOf(replicas))
	}
	// One at a time, faster than the operator converges them (see
	// bundleCreates); created all at once they measured 0.54 of the raw
	// writer where one at a time measured 0.82–1.08 (e2e README).
	if _, err := rawCreate(ctx, cp.Client, clusters, clusterCreates); err != nil {
		b.Fatal(err)
	}
	if _, err := testkit.WaitFor(ctx, seldom(settleInterval, allClustersSettled(cp.Client, ns, n)), time.Duration(n)*6*time.Second+5*time.Minute); err != nil {
		b.Fatalf("the clusters did not settle: %v", err)
	}
	coldProfile()
	row.coldCPU = processCPU(b) - cpuBefore
	row.coldRequests = o.counter.Snapshot().Sub(coldBefore)
	row.reconciles = reconciles(productName) - passesBefore
	created, last := lastCreate(o.run.Writes(), productResources, start)
	row.cold = last.Sub(start)
	row.heapMiBPer1k, row.liveMiBPer1k, row.objects, row.inventoryBytesPerObj = productFootprint(b, cp.Client, ns, heapBefore)
	if created != row.objects {
		b.Logf("the operator created %d objects; its inventories hold %d", created, row.objects)
	}

	// the raw writer: the same objects, the same client, as many writes
	// in flight as the operator can have, and the four workers of the
	// reference
	row.raw, row.rawReference = rawBaseline(b, cp, ns, productName, productKinds, productWorkers*apply.DefaultConcurrency, "products", 10)

	// a no-op resync: one pass of every cluster
	noop, err := measure(o.counter, func() error { return o.passAll(ctx, ns, names, productWorkers) })
	if err != nil {
		b.Fatal(err)
	}
	row.noopWrites, row.noopReads = noop.delta.Writes(), reads(noop.delta)

	// edits of role group ConfigMaps reverted
	var edited []string
	for i := range editCount {
		edited = append(edited, builders.RoleGroupResourceName(clusterName(i*n/editCount), "server", "a"))
	}
	latencies, writes := o.revertEdits(b, cp.Client, ns, edited)
	row.edits, row.editWrites, row.editStatusWrites = len(latencies), writes.Writes(), statusWrites(writes)
	row.editMedian, row.editMax = medianMax(latencies)

	// one role group retired per cluster
	retireBefore := o.counter.Snapshot()
	row.retireWrites, row.retireMin = retireGatewayB(b, o, cp.Client, ns, names)
	retire := objectRequests(o.counter.Snapshot().Sub(retireBefore))
	row.retireReads, row.resources = reads(retire), n
	fmt.Printf("retiring one role group, uncached reads per cluster: %s\n", readsPerResource(retire, n))

	asked := o.events.total()
	lost, err := droppedEvents(ctx, cp.Client, ns, o.events)
	if err != nil {
		b.Fatal(err)
	}
	row.eventsAsked, row.eventsLost = asked, lost
	return row
}

// reconciles returns how many passes the controller named name ran in
// this process, as controller-runtime counts them.
func reconciles(name string) int {
	families, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		return 0
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != "controller_runtime_reconcile_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && l.GetValue() == name {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return int(total)
}

// readsPerResource lists the get and list requests of s by resource, per
// resource of n.
func readsPerResource(s apicount.Snapshot, n int) string {
	var parts []string
	for _, k := range slices.SortedFunc(maps.Keys(s), func(a, b apicount.Key) int { return strings.Compare(a.Verb+a.Resource, b.Verb+b.Resource) }) {
		if (k.Verb == "get" || k.Verb == "list") && !strings.HasPrefix(k.Resource, "/") {
			parts = append(parts, fmt.Sprintf("%s %s %s", k.Verb, k.Resource, trim(float64(s[k])/float64(n))))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// productFootprint returns the heap in use and the live heap the clusters
// added per 1,000 managed objects, the number of managed objects (the
// inventories' items) and the bytes of inventory per object in the
// clusters' status.
func productFootprint(b *testing.B, c client.Reader, ns string, before heapReading) (float64, float64, int, float64) {
	b.Helper()
	heapAfter := readHeap()
	heapProfile(b, "clusters")
	var list samplev1alpha1.SampleClusterList
	if err := c.List(b.Context(), &list, client.InNamespace(ns)); err != nil {
		b.Fatal(err)
	}
	objects, bytes := 0, 0
	add := func(inv *inventory.Inventory) {
		raw, err := json.Marshal(inv)
		if err != nil {
			b.Fatal(err)
		}
		objects += inv.Len()
		bytes += len(raw)
	}
	for i := range list.Items {
		st := &list.Items[i].Status.ClusterStatus
		add(&st.Objects)
		for j := range st.Roles {
			add(&st.Roles[j].Objects)
		}
		for j := range st.RoleGroups {
			add(&st.RoleGroups[j].Objects)
		}
	}
	inUse, live := heapAfter.mibPer1k(before, objects)
	return inUse, live, objects, float64(bytes) / float64(objects)
}

// heapReading is the heap in use and the live heap at one moment.
type heapReading struct{ inUse, live uint64 }

// readHeap reads the heap in use and the live heap.
func readHeap() heapReading {
	return heapReading{inUse: testkit.HeapInUse(), live: testkit.HeapLive()}
}

// mibPer1k returns the growth of the heap in use and of the live heap
// since before, in MiB per 1,000 of objects.
func (h heapReading) mibPer1k(before heapReading, objects int) (inUse, live float64) {
	per1k := func(b, a uint64) float64 {
		return float64(int64(a)-int64(b)) / (1 << 20) / (float64(objects) / 1000)
	}
	return per1k(before.inUse, h.inUse), per1k(before.live, h.live)
}

// retireGatewayB removes gateway/b from every cluster and waits until each
// is retired. It returns the operator's writes meanwhile (events and
// leases aside) and the minimum: per cluster, one delete per object of the
// group and one status write.
func retireGatewayB(b *testing.B, o *benchOperator, c client.Client, ns string, names []string) (int, int) {
	b.Helper()
	ctx := b.Context()
	minimum := 0
	var list samplev1alpha1.SampleClusterList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		b.Fatal(err)
	}
	for _, cr := range list.Items {
		for _, g := range cr.Status.RoleGroups {
			if g.Role == "gateway" && g.Group == "b" {
				minimum += g.Objects.Len() + 1
			}
		}
	}
	before := len(o.run.Writes())
	for _, name := range names {
		cr := &sampleCluster{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, cr); err != nil {
			b.Fatal(err)
		}
		delete(cr.Spec.Roles["gateway"].RoleGroups, "b")
		if err := c.Update(ctx, cr); err != nil {
			b.Fatal(err)
		}
	}
	retired := clustersJudged(c, ns, len(names), func(cr *sampleCluster) (bool, string) {
		if ok, why := settled(cr); !ok {
			return false, why
		}
		if cond := conditionOf(cr, commonsv1alpha1.ConditionOrphanCleanupPending); cond == nil || cond.Status != "False" {
			return false, cr.Name + ": cleanup pending"
		}
		for _, g := range cr.Status.RoleGroups {
			if g.Role == "gateway" && g.Group == "b" {
				return false, cr.Name + ": gateway/b in the ledger"
			}
		}
		return true, ""
	})
	if _, err := testkit.WaitFor(ctx, retired, time.Duration(len(names))*3*time.Second+5*time.Minute); err != nil {
		b.Fatalf("the role groups were not retired: %v", err)
	}
	retire := o.run.Writes()[before:]
	byKind := map[string]int{}
	for _, w := range retire {
		if crash.DefaultCounts(w.Verb, w.Resource) {
			byKind[w.Verb+" "+w.Resource]++
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		parts = append(parts, fmt.Sprintf("%s %s", k, trim(float64(byKind[k])/float64(len(names)))))
	}
	fmt.Printf("retiring one role group, writes per cluster: %s\n", strings.Join(parts, ", "))
	return objectWrites(retire), minimum
}
