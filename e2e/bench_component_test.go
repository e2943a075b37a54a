package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
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
// Deployment and a Service.
func benchComponent(b *testing.B, cp *controlplane.ControlPlane, label string, n int) scaleRow {
	ctx := b.Context()
	ns := benchNamespace(b, cp.Client)
	releaseBundles(b, cp.Client, ns)
	o := startBenchOperator(b, cp, benchComponentProcess(ns))
	probe := &bundle.Bundle{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "probe"}}
	o.serving(b, cp.Client, probe, func(obj client.Object) bool { return len(obj.GetFinalizers()) > 0 },
		bundle.Kinds(), componentName+"/"+apply.AnnotationOwnerID)
	heapBefore := readHeap()
	heapProfile(b, "component-before")
	row := scaleRow{workload: label + " one component"}

	coldBefore := o.counter.Snapshot()
	start := time.Now()
	name := bundleName(0)
	if err := cp.Client.Create(ctx, newBundle(ns, name, int32(n-2))); err != nil {
		b.Fatal(err)
	}
	if _, err := testkit.WaitFor(ctx, bundlesJudged(cp.Client, ns, 1, bundleReady), time.Duration(n)*50*time.Millisecond+5*time.Minute); err != nil {
		b.Fatalf("the component did not get ready: %v", err)
	}
	row.coldRequests = o.counter.Snapshot().Sub(coldBefore)
	created, last := lastCreate(o.run.Writes(), componentResources, start)
	row.cold = last.Sub(start)
	heapAfter := readHeap()
	heapProfile(b, "component")
	bnd := &bundle.Bundle{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, bnd); err != nil {
		b.Fatal(err)
	}
	inv, err := json.Marshal(&bnd.Status.Inventory)
	if err != nil {
		b.Fatal(err)
	}
	row.objects = bnd.Status.Inventory.Len()
	if created != row.objects {
		b.Logf("the operator created %d objects; its inventory holds %d", created, row.objects)
	}
	row.heapMiBPer1k, row.liveMiBPer1k = heapAfter.mibPer1k(heapBefore, row.objects)
	row.inventoryBytesPerObj = float64(len(inv)) / float64(row.objects)

	rawNS := benchNamespace(b, cp.Client)
	copies, err := rawCopies(ctx, cp.Client, ns, rawNS, componentName+"/"+apply.AnnotationOwnerID, bundle.Kinds())
	if err != nil {
		b.Fatal(err)
	}
	raw, err := client.New(cp.RESTConfig(), client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	if err != nil {
		b.Fatal(err)
	}
	if row.raw, err = rawCreate(ctx, raw, copies, apply.DefaultConcurrency); err != nil {
		b.Fatal(err)
	}

	noop, err := measure(o.counter, func() error { return o.passAll(ctx, ns, []string{name}, 1) })
	if err != nil {
		b.Fatal(err)
	}
	row.noopWrites, row.noopReads = noop.delta.Writes(), reads(noop.delta)

	var edited []string
	for i := range editCount {
		edited = append(edited, fmt.Sprintf("%s-%04d", name, i*(n-2)/editCount))
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
