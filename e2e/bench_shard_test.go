package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// ShardBundlesEnv is how many bundles BenchmarkShardedReplicas converges.
// Unset means 300.
const ShardBundlesEnv = "OPKIT_E2E_SHARD_BUNDLES"

// ShardClustersEnv is how many product clusters BenchmarkShardedReplicas
// converges. Unset means 300.
const ShardClustersEnv = "OPKIT_E2E_SHARD_CLUSTERS"

// shardConfigMaps is how many ConfigMaps each benchmark bundle renders,
// beside its Deployment and Service.
const shardConfigMaps = 2

// productRing is the shard ring of the sharded product operator.
const productRing = "sample"

// shardedWorkload is what BenchmarkShardedReplicas converges cold with
// sharded replicas.
type shardedWorkload struct {
	name string // of the sub-benchmark and the table
	env  string // the variable that sets how many resources
	ring string // the replicas' shard ring
	// operator returns the replica named member, sharding the resources of
	// ns and counting its passes in passes.
	operator func(ns, member string, passes *passCounter) crash.Operator
	// create creates the i-th resource in ns.
	create func(ctx context.Context, c client.Client, ns string, i int) error
	// written is done when the operator has created the workloads (the
	// objects that start pods) of all n resources of ns.
	written func(c client.Client, ns string, n int) testkit.Condition[string]
	// settled is done when all n resources of ns converged.
	settled func(c client.Client, ns string, n int) testkit.Condition[string]
	// objects counts the objects the n converged resources of ns manage.
	objects func(b *testing.B, c client.Client, ns string, n int) int
}

// shardedWorkloads are the component operator's bundles and the product
// operator's clusters of workload (a).
func shardedWorkloads() []shardedWorkload {
	return []shardedWorkload{
		{
			name: "bundles", env: ShardBundlesEnv, ring: bundleRing,
			operator: func(ns, member string, passes *passCounter) crash.Operator {
				return shardedBundleOperator(testkit.QuietLogger(), ns, member, passes)
			},
			create: func(ctx context.Context, c client.Client, ns string, i int) error {
				return c.Create(ctx, newBundle(ns, bundleName(i), shardConfigMaps))
			},
			written: func(c client.Client, ns string, n int) testkit.Condition[string] {
				return listed(c, ns, &appsv1.DeploymentList{}, n)
			},
			settled: func(c client.Client, ns string, n int) testkit.Condition[string] {
				return bundlesJudged(c, ns, n, bundleReady)
			},
			objects: func(_ *testing.B, _ client.Client, _ string, n int) int { return n * (shardConfigMaps + 2) },
		},
		{
			name: "clusters", env: ShardClustersEnv, ring: productRing,
			operator: shardedProductOperator,
			create: func(ctx context.Context, c client.Client, ns string, i int) error {
				return c.Create(ctx, newCluster(ns, clusterName(i), scaleShape))
			},
			written: func(c client.Client, ns string, n int) testkit.Condition[string] {
				return listed(c, ns, &appsv1.StatefulSetList{}, n*4) // 2 roles × 2 role groups
			},
			settled: allClustersSettled,
			objects: func(b *testing.B, c client.Client, ns string, _ int) int {
				_, _, objects, _ := productFootprint(b, c, ns, heapReading{})
				return objects
			},
		},
	}
}

// shardedProductOperator returns one replica of the product operator of
// workload (a), set up as the scale benchmark's, with sharding on.
func shardedProductOperator(ns, member string, passes *passCounter) crash.Operator {
	return shardedOperator(ns, productRing, member, samplev1alpha1.GroupVersion.WithKind("SampleCluster"),
		func(ctx context.Context, cfg *rest.Config, m *shard.Member) (ctrl.Manager, error) {
			rc := productConfig()
			rc.HealthCheckInterval = -1
			rc.ProgressInterval = 0
			rc.Orphan.DrainPollInterval = 500 * time.Millisecond
			rc.Namespaces = []string{ns}
			rc.MaxConcurrentReconciles = productWorkers
			rc.Sharding = sharding(m, passes)
			r, err := reconciler.New(rc)
			if err != nil {
				return nil, err
			}
			cacheOpts, clientOpts := r.ManagerOptions()
			cacheOpts.DefaultNamespaces = map[string]cache.Config{ns: {}}
			mgr, err := ctrl.NewManager(cfg, ctrl.Options{
				Scheme:     testScheme(),
				Cache:      cacheOpts,
				Client:     clientOpts,
				Metrics:    metricsserver.Options{BindAddress: "0"},
				Logger:     testkit.QuietLogger(),
				Controller: config.Controller{SkipNameValidation: ptr.To(true)},
			})
			if err != nil {
				return nil, err
			}
			return mgr, r.SetupWithManager(ctx, mgr)
		})
}

// leasesOf is done when ns holds the Leases of want members of ring.
func leasesOf(c client.Client, ns, ring string, want int) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		leases := &coordinationv1.LeaseList{}
		if err := c.List(ctx, leases, client.InNamespace(ns), client.MatchingLabels{commonsv1alpha1.LabelShardRing: ring}); err != nil {
			return "", false, err
		}
		return fmt.Sprintf("%d of %d", len(leases.Items), want), len(leases.Items) == want, nil
	}
}

// listed is done when ns holds want objects of list's kind.
func listed(c client.Client, ns string, list client.ObjectList, want int) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
			return "", false, err
		}
		n := meta.LenList(list)
		return fmt.Sprintf("%d of %d", n, want), n == want, nil
	}
}

// shardRow is one replica count's cold converge.
type shardRow struct {
	replicas, resources, objects int
	written                      time.Duration // until every workload was created
	took                         time.Duration
	heap                         int64 // bytes in use after converging, above the heap before the replicas started
	requests                     []int // per replica
	passes                       []int // per replica
	moved                        int   // resources that got passes from more than one replica
}

func (r shardRow) objectsPerSecond() float64 { return float64(r.objects) / r.took.Seconds() }

// BenchmarkShardedReplicas converges the same resources cold with 1, 2
// and 3 sharded replicas, all in this process — the component operator's
// bundles, then the product operator's clusters — and prints for each:
// objects per second, heap per replica (the heap in use after converging
// above the heap before the replicas started, divided by the replicas:
// shared fixed costs spread over them), API requests and passes per
// replica, how many resources got passes from two replicas (none should:
// every replica is on the ring before the first resource is created), and
// how long the replicas took to write every workload (Deployment or
// StatefulSet) before the controllers and kwok made its pods ready.
func BenchmarkShardedReplicas(b *testing.B) {
	cp := env.Require(b)
	for _, w := range shardedWorkloads() {
		b.Run(w.name, func(b *testing.B) {
			n := intEnv(b, w.env, 300)
			var rows []shardRow
			for _, replicas := range []int{1, 2, 3} {
				b.Run(fmt.Sprintf("replicas-%d", replicas), func(b *testing.B) {
					rows = append(rows, benchShards(b, cp, w, replicas, n))
				})
			}
			if len(rows) == 0 {
				return
			}
			// Printed, not logged: make bench shows it without -v.
			fmt.Printf("\nsharded replicas, %d %s:\n\n%s\n", n, w.name, shardTable(w.name, rows))
		})
	}
}

// meanMax returns the mean and the largest of counts (0, 0 for none).
func meanMax(counts []int) (mean, most int) {
	if len(counts) == 0 {
		return 0, 0
	}
	total := 0
	for _, c := range counts {
		total += c
		most = max(most, c)
	}
	return total / len(counts), most
}

// shardTable renders rows as a markdown table, each ratio against the
// first row.
func shardTable(what string, rows []shardRow) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "| replicas | %s (objects) | workloads written | cold converge | objects/s | ÷ 1 replica | heap per replica MiB | ÷ 1 replica | requests per replica (max) | passes per replica (max) | passed by two replicas |\n|---|---|---|---|---|---|---|---|---|---|---|\n", what)
	base := float64(rows[0].heap) / (1 << 20)
	for _, r := range rows {
		requests, mostRequests := meanMax(r.requests)
		passes, mostPasses := meanMax(r.passes)
		perReplica := float64(r.heap) / float64(r.replicas) / (1 << 20)
		fmt.Fprintf(&sb, "| %d | %d (%d) | %s | %s | %.0f | %.2f | %.1f | %.2f | %d (%d) | %d (%d) | %d |\n", r.replicas, r.resources, r.objects,
			r.written.Round(100*time.Millisecond), r.took.Round(100*time.Millisecond), r.objectsPerSecond(), r.objectsPerSecond()/rows[0].objectsPerSecond(),
			perReplica, perReplica/base, requests, mostRequests, passes, mostPasses, r.moved)
	}
	return sb.String()
}

// benchShards starts replicas sharded replicas of w's operator, creates n
// of its resources and waits until every one converged.
func benchShards(b *testing.B, cp *controlplane.ControlPlane, w shardedWorkload, replicas, n int) shardRow {
	ctx := b.Context()
	ns := benchNamespace(b, cp.Client)
	releaseBundles(b, cp.Client, ns)
	heapBefore := testkit.HeapInUse()
	counters := make([]*apicount.Counter, replicas)
	passes := newPassCounter()
	for i := range replicas {
		cfg := cp.RESTConfig()
		counters[i] = apicount.New()
		cfg.Wrap(counters[i].WrapTransport)
		h, err := crash.New(crash.Options{Config: cfg, Operator: w.operator(ns, fmt.Sprintf("op-%d", i), passes)})
		if err != nil {
			b.Fatal(err)
		}
		run := h.Start(0)
		b.Cleanup(func() {
			if err := run.Stop(); err != nil {
				b.Errorf("replica %d: %v", i, err)
			}
		})
	}
	// Every replica on the ring before the first resource: each resource
	// is claimed once, by the replica the full ring gives it.
	if _, err := testkit.WaitFor(ctx, leasesOf(cp.Client, ns, w.ring, replicas), time.Minute); err != nil {
		b.Fatalf("%d replicas did not all join the ring: %v", replicas, err)
	}
	before := make([]apicount.Snapshot, replicas)
	for i, c := range counters {
		before[i] = c.Snapshot()
	}
	start := time.Now()
	for i := range n {
		if err := w.create(ctx, cp.Client, ns, i); err != nil {
			b.Fatal(err)
		}
	}
	timeout := time.Duration(n)*6*time.Second + 5*time.Minute
	if _, err := testkit.WaitFor(ctx, w.written(cp.Client, ns, n), timeout); err != nil {
		b.Fatalf("%d replicas: the %s' workloads were not all written: %v", replicas, w.name, err)
	}
	written := time.Since(start)
	if _, err := testkit.WaitFor(ctx, w.settled(cp.Client, ns, n), timeout); err != nil {
		b.Fatalf("%d replicas: the %s did not converge: %v", replicas, w.name, err)
	}
	row := shardRow{replicas: replicas, resources: n, written: written, took: time.Since(start)}
	row.heap = int64(testkit.HeapInUse()) - int64(heapBefore)
	heapProfile(b, fmt.Sprintf("replicas-%d", replicas))
	for i, c := range counters {
		row.requests = append(row.requests, c.Snapshot().Sub(before[i]).Total())
	}
	byReplica := passes.perReplica()
	for i := range replicas {
		row.passes = append(row.passes, byReplica[fmt.Sprintf("op-%d", i)])
	}
	row.moved = passes.shared()
	row.objects = w.objects(b, cp.Client, ns, n)
	b.ReportMetric(row.objectsPerSecond(), "objects/s")
	b.ReportMetric(float64(row.heap)/float64(replicas)/(1<<20), "MiB/replica")
	return row
}
