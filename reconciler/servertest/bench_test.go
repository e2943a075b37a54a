package servertest_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/sample"
)

// The product benchmarks reconcile N cluster resources of two roles with
// two role groups each (one replica per group) on a control plane with
// controllers and kwok nodes, through an operator set up as the README
// shows, and report every figure beside a baseline measured in the same
// run:
//
//	cd reconciler/servertest
//	CI=true go test -run '^$' -bench Product -benchtime 1x
//	OPKIT_BENCH_CLUSTERS=20 CI=true go test -run '^$' -bench Product -benchtime 1x
const (
	// benchClustersEnv sets N; defaultBenchClusters when unset.
	benchClustersEnv     = "OPKIT_BENCH_CLUSTERS"
	defaultBenchClusters = 200
	// benchConcurrency is how many passes run at once when the benchmark
	// drives them itself, as many as the controller's default workers.
	benchConcurrency = 4
)

// benchRoles is each cluster's shape: two roles of two role groups.
var benchRoles = map[string]map[string]int32{"server": {"a": 1, "b": 1}, "gateway": {"a": 1, "b": 1}}

// BenchmarkProduct measures the product reconciler at scale: heap per
// managed object, a no-op resync beside a naive create-or-update
// reconciler, live edits reverted through the watch, and the retirement
// of one role group per cluster beside the minimal writes.
func BenchmarkProduct(b *testing.B) {
	w := newWorkload(b, benchClusters(b))
	b.Run("converge", w.benchConverge)
	b.Run("heap", w.benchHeap)
	b.Run("noop-resync", w.benchNoOp)
	b.Run("edit-statefulset", func(b *testing.B) { w.benchEdit(b, statefulSetReplicasEdit) })
	b.Run("edit-configmap", func(b *testing.B) { w.benchEdit(b, configMapDataEdit) })
	b.Run("retire-group", w.benchRetire)
}

func benchClusters(b *testing.B) int {
	v := os.Getenv(benchClustersEnv)
	if v == "" {
		return defaultBenchClusters
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a positive number of clusters", benchClustersEnv, v)
	}
	return n
}

// benchControlPlane starts a control plane of its own for the benchmark,
// with enough kwok nodes for pods pods (250 each), and stops it when the
// benchmark ends.
func benchControlPlane(b *testing.B, pods int) *controlplane.ControlPlane {
	b.Helper()
	e := &testkit.Env{Options: controlplane.Options{
		Controllers: true,
		Nodes:       max(controlplane.DefaultNodes, (pods+249)/250+1),
		CRDs:        sample.MustCRDs(),
		Scheme:      testScheme(),
	}}
	cp := e.Require(b)
	b.Cleanup(func() {
		if err := e.Stop(); err != nil {
			b.Errorf("stopping the control plane: %v", err)
		}
	})
	return cp
}

// benchOperator is the product operator under measurement: the manager's
// requests are counted, its handler can record what it builds.
type benchOperator struct {
	r       *reconciler.Reconciler[*sampleCluster]
	mgr     ctrl.Manager
	count   *apicount.Counter
	handler *recordingHandler
}

// startBenchOperator runs the reconciler as an operator would: every
// default (health and progress intervals, controller workers), a manager
// built from ManagerOptions watching every namespace, and no client-side
// rate limit (what ctrl.GetConfig sets up).
func startBenchOperator(b *testing.B, cp *controlplane.ControlPlane) *benchOperator {
	b.Helper()
	count := apicount.New()
	rc := cp.RESTConfig()
	rc.QPS, rc.Burst = -1, 0
	rc.Wrap(count.WrapTransport)
	cfg := baseConfig()
	cfg.ProgressInterval = 0
	handler := newRecordingHandler(cfg.Handler)
	cfg.Handler = handler
	r, err := reconciler.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(rc, ctrl.Options{
		Scheme:     testScheme(),
		Cache:      cacheOpts,
		Client:     clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     testkit.QuietLogger(),
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := r.SetupWithManager(b.Context(), mgr); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("manager: %v", err)
		}
	})
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		b.Fatal("the manager's cache did not sync")
	}
	return &benchOperator{r: r, mgr: mgr, count: count, handler: handler}
}

// observer returns the benchmark's own client (see workload.api).
func observer(b *testing.B, cp *controlplane.ControlPlane) client.WithWatch {
	b.Helper()
	rc := cp.RESTConfig()
	rc.QPS, rc.Burst = -1, 0
	c, err := client.NewWithWatch(rc, client.Options{Scheme: testScheme(), Mapper: cp.Client.RESTMapper()})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// workload is the converged set of clusters the sub-benchmarks share.
type workload struct {
	// parent is the benchmark the workload lives as long as.
	parent *testing.B
	cp     *controlplane.ControlPlane
	ns     string
	// api is the benchmark's own client: uncounted, uncached, without a
	// client-side rate limit, able to watch.
	api   client.WithWatch
	op    *benchOperator
	names []string
	// objects is how many objects the reconciler manages (the inventories'
	// sum), pods not included.
	objects               int
	heapBefore, heapAfter uint64
	// cold and coldTime are the operator's requests and the time from the
	// creation of the clusters until they converged and settled.
	cold     apicount.Snapshot
	coldTime time.Duration
	// naive is the baseline, set up by the first sub-benchmark that
	// needs it.
	naive *naiveReconciler
}

// newWorkload starts the operator, measures the heap with nothing managed,
// creates n clusters, waits until they converged and settled, and measures
// the heap again.
func newWorkload(b *testing.B, n int) *workload {
	b.Helper()
	cp := benchControlPlane(b, n*4)
	w := &workload{parent: b, cp: cp, ns: testkit.Namespace(b, cp.Client), api: observer(b, cp), op: startBenchOperator(b, cp)}
	w.heapBefore = testkit.HeapInUse()

	start, before := time.Now(), w.op.count.Snapshot()
	for i := range n {
		w.names = append(w.names, fmt.Sprintf("c%03d", i))
	}
	forEach(b, w.names, func(name string) error {
		return w.api.Create(context.Background(), newCluster(w.ns, name, benchRoles))
	})
	w.waitConverged(b, convergeTimeout(n))
	w.settle(b, w.names)
	w.cold, w.coldTime = w.op.count.Snapshot().Sub(before), time.Since(start)
	w.objects = w.managedObjects(b)
	w.heapAfter = testkit.HeapInUse()
	return w
}

// convergeTimeout allows for the controllers' own pace (pods created and
// made ready at their client's rate limits).
func convergeTimeout(n int) time.Duration { return 3*time.Minute + time.Duration(n)*2*time.Second }

// forEach runs fn for every name, benchConcurrency at a time, and fails
// the benchmark with the first error.
func forEach(b *testing.B, names []string, fn func(name string) error) {
	b.Helper()
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan string)
	)
	for range benchConcurrency {
		wg.Go(func() {
			for name := range next {
				if err := fn(name); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("%s: %w", name, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, name := range names {
		next <- name
	}
	close(next)
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

func (w *workload) key(name string) client.ObjectKey {
	return client.ObjectKey{Namespace: w.ns, Name: name}
}
