package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// ShardBundlesEnv is how many bundles BenchmarkShardedReplicas converges.
// Unset means 300.
const ShardBundlesEnv = "OPKIT_E2E_SHARD_BUNDLES"

// shardConfigMaps is how many ConfigMaps each benchmark bundle renders,
// beside its Deployment and Service.
const shardConfigMaps = 2

// shardRow is one replica count's cold converge.
type shardRow struct {
	replicas, bundles, objects int
	took                       time.Duration
	heap                       int64 // bytes in use after converging, above the heap before the replicas started
	requests                   []int // per replica
}

func (r shardRow) objectsPerSecond() float64 { return float64(r.objects) / r.took.Seconds() }

// BenchmarkShardedReplicas converges the same bundles cold with 1, 2 and 3
// sharded replicas of the component operator, all in this process, and
// prints for each: objects per second, heap per replica (the heap in use
// after converging above the heap before the replicas started, divided by
// the replicas: shared fixed costs spread over them) and API requests per
// replica.
func BenchmarkShardedReplicas(b *testing.B) {
	cp := env.Require(b)
	n := intEnv(b, ShardBundlesEnv, 300)
	var rows []shardRow
	for _, replicas := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("replicas-%d", replicas), func(b *testing.B) {
			rows = append(rows, benchShards(b, cp, replicas, n))
		})
	}
	var sb strings.Builder
	sb.WriteString("| replicas | bundles (objects) | cold converge | objects/s | ÷ 1 replica | heap per replica MiB | ÷ 1 replica | requests per replica (max) |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		total, most := 0, 0
		for _, q := range r.requests {
			total += q
			most = max(most, q)
		}
		perReplica := float64(r.heap) / float64(r.replicas) / (1 << 20)
		base := float64(rows[0].heap) / (1 << 20)
		fmt.Fprintf(&sb, "| %d | %d (%d) | %s | %.0f | %.2f | %.1f | %.2f | %d (%d) |\n", r.replicas, r.bundles, r.objects,
			r.took.Round(100*time.Millisecond), r.objectsPerSecond(), r.objectsPerSecond()/rows[0].objectsPerSecond(),
			perReplica, perReplica/base, total/r.replicas, most)
	}
	// Printed, not logged: make bench shows it without -v.
	fmt.Printf("\nsharded replicas, %d bundles:\n\n%s\n", n, sb.String())
}

// benchShards starts replicas sharded replicas, creates n bundles and
// waits until every one is Ready.
func benchShards(b *testing.B, cp *controlplane.ControlPlane, replicas, n int) shardRow {
	ctx := b.Context()
	ns := benchNamespace(b, cp.Client)
	releaseBundles(b, cp.Client, ns)
	heapBefore := testkit.HeapInUse()
	counters := make([]*apicount.Counter, replicas)
	for i := range replicas {
		cfg := cp.RESTConfig()
		counters[i] = apicount.New()
		cfg.Wrap(counters[i].WrapTransport)
		h, err := crash.New(crash.Options{Config: cfg, Operator: shardedBundleOperator(testkit.QuietLogger(), ns, fmt.Sprintf("op-%d", i))})
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
	before := make([]apicount.Snapshot, replicas)
	for i, c := range counters {
		before[i] = c.Snapshot()
	}
	start := time.Now()
	for i := range n {
		if err := cp.Client.Create(ctx, newBundle(ns, bundleName(i), shardConfigMaps)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := testkit.WaitFor(ctx, bundlesJudged(cp.Client, ns, n, bundleReady), time.Duration(n)*time.Second+5*time.Minute); err != nil {
		b.Fatalf("%d replicas: the bundles did not get ready: %v", replicas, err)
	}
	row := shardRow{replicas: replicas, bundles: n, objects: n * (shardConfigMaps + 2), took: time.Since(start)}
	row.heap = int64(testkit.HeapInUse()) - int64(heapBefore)
	for i, c := range counters {
		row.requests = append(row.requests, c.Snapshot().Sub(before[i]).Total())
	}
	b.ReportMetric(row.objectsPerSecond(), "objects/s")
	b.ReportMetric(float64(row.heap)/float64(replicas)/(1<<20), "MiB/replica")
	return row
}
