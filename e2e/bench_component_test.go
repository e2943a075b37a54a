package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// componentResources are the resources a bundle renders.
var componentResources = []string{"configmaps", "services", "deployments.apps"}

// benchComponentProcess is the component operator under measurement.
func benchComponentProcess(ns string) func(o *benchOperator) func(ctx context.Context, cfg *rest.Config) error {
	return func(o *benchOperator) func(ctx context.Context, cfg *rest.Config) error {
		return func(ctx context.Context, cfg *rest.Config) error {
			gen, err := bundle.Generator()
			if err != nil {
				return err
			}
			r, err := component.New[*bundle.Bundle](componentName, gen, component.Options{Kinds: bundle.Kinds()})
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

// benchComponent measures one component of n objects: n-2 ConfigMaps, a
// Deployment of replicas and a Service.
func benchComponent(b *testing.B, cp *controlplane.ControlPlane, label string, n int, replicas int32) scaleRow {
	return benchComponents(b, cp, label+" one component", 1, n, replicas)
}

// benchComponents measures count components of n objects each, each
// rendering n-2 ConfigMaps, a Deployment of replicas and a Service.
func benchComponents(b *testing.B, cp *controlplane.ControlPlane, workload string, count, n int, replicas int32) scaleRow {
	ctx := b.Context()
	ns := benchNamespace(b, cp.Client)
	releaseBundles(b, cp.Client, ns)
	o := startBenchOperator(b, cp, benchComponentProcess(ns))
	probe := &bundle.Bundle{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "probe"}}
	o.serving(b, cp.Client, probe, func(obj client.Object) bool { return len(obj.GetFinalizers()) > 0 },
		bundle.Kinds(), componentName+"/"+apply.AnnotationOwnerID)
	heapBefore := readHeap()
	heapProfile(b, "component-before")
	row := scaleRow{workload: workload}
	// The operator's passes at once, each with the engine's writes in
	// flight: what the raw writer may have in flight too.
	workers := min(count, component.DefaultMaxConcurrentReconciles)

	coldBefore := o.counter.Snapshot()
	coldProfile := cpuWindow(b, cp, profileName(b)+"-cold", 6)
	cpuBefore, start := processCPU(b), time.Now()
	names := make([]string, count)
	bundles := make([]client.Object, count)
	for i := range count {
		names[i] = bundleName(i)
		bn := newBundle(ns, names[i], int32(n-2))
		bn.Spec.Replicas = replicas
		bundles[i] = bn
	}
	if _, err := rawCreate(ctx, cp.Client, bundles, bundleCreates); err != nil {
		b.Fatal(err)
	}
	// The operator's creates are counted in process: a list of the
	// bundles meanwhile would take the API server's time from it.
	deadline := time.Duration(count*n)*50*time.Millisecond + 5*time.Minute
	if _, err := testkit.WaitFor(ctx, func(context.Context) (int, bool, error) {
		created, _ := lastCreate(o.run.Writes(), componentResources, start)
		return created, created >= count*n, nil
	}, deadline); err != nil {
		b.Fatalf("the operator did not create the components' objects: %v", err)
	}
	if _, err := testkit.WaitFor(ctx, seldom(settleInterval, bundlesJudged(cp.Client, ns, count, bundleReady)), deadline); err != nil {
		b.Fatalf("the components did not get ready: %v", err)
	}
	coldProfile()
	row.coldRequests = o.counter.Snapshot().Sub(coldBefore)
	row.coldCPU = processCPU(b) - cpuBefore
	created, last := lastCreate(o.run.Writes(), componentResources, start)
	row.cold = last.Sub(start)
	heapAfter := readHeap()
	heapProfile(b, "component")
	var list bundle.BundleList
	if err := cp.Client.List(ctx, &list, client.InNamespace(ns)); err != nil {
		b.Fatal(err)
	}
	invBytes := 0
	for i := range list.Items {
		inv, err := json.Marshal(&list.Items[i].Status.Inventory)
		if err != nil {
			b.Fatal(err)
		}
		invBytes += len(inv)
		row.objects += list.Items[i].Status.Inventory.Len()
	}
	if created != row.objects {
		b.Logf("the operator created %d objects; its inventories hold %d", created, row.objects)
	}
	row.heapMiBPer1k, row.liveMiBPer1k = heapAfter.mibPer1k(heapBefore, row.objects)
	row.inventoryBytesPerObj = float64(invBytes) / float64(row.objects)

	row.raw, row.rawReference = rawBaseline(b, cp, ns, componentName, bundle.Kinds(), workers*apply.DefaultConcurrency, profileName(b), 3)

	noop, err := measure(o.counter, func() error { return o.passAll(ctx, ns, names, workers) })
	if err != nil {
		b.Fatal(err)
	}
	row.noopWrites, row.noopReads = noop.delta.Writes(), reads(noop.delta)

	var edited []string
	for i := range editCount {
		// spread over the components, and over the objects of each
		edited = append(edited, fmt.Sprintf("%s-%04d", names[i*count/editCount], i*(n-2)/editCount))
	}
	latencies, writes := o.revertEdits(b, cp.Client, ns, edited)
	row.edits, row.editWrites, row.editStatusWrites = len(latencies), writes.Writes(), statusWrites(writes)
	row.editMedian, row.editMax = medianMax(latencies)

	asked := o.events.total()
	lost, err := droppedEvents(ctx, cp.Client, ns, o.events)
	if err != nil {
		b.Fatal(err)
	}
	row.eventsAsked, row.eventsLost = asked, lost
	return row
}

// profileName names the CPU profiles (CPUProfileEnv) of the row b
// measures: its sub-benchmark's name, "component-1000" say.
func profileName(b *testing.B) string {
	return path.Base(b.Name())
}
