package e2e_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// The scale benchmarks. Each workload is measured once (a run takes
// minutes) beside a raw writer that creates the same objects with the same
// client and concurrency, in the same run (rawBaseline: the median of
// rawRounds rounds):
//
//	cd e2e && CI=true go test -run '^$' -bench Scale -benchtime 1x -timeout 60m
//
// Sizes: OPKIT_E2E_SCALE_CLUSTERS (default 200 product clusters of two
// roles with two role groups each), OPKIT_E2E_SCALE_OBJECTS (default
// "1000,5000": one component of that many objects each) and
// OPKIT_E2E_SCALE_COMPONENTS (default 100 components of
// componentObjects objects each). OPKIT_E2E_SCALE_REPLICAS (default 1) is
// the replicas of every product role group and of every component's
// Deployment; 0 starts no pods, as the raw writer's copies start none.
const (
	ScaleClustersEnv   = "OPKIT_E2E_SCALE_CLUSTERS"
	ScaleObjectsEnv    = "OPKIT_E2E_SCALE_OBJECTS"
	ScaleComponentsEnv = "OPKIT_E2E_SCALE_COMPONENTS"
	ScaleReplicasEnv   = "OPKIT_E2E_SCALE_REPLICAS"
)

// componentObjects is how many objects each of the many components of the
// last row renders: 18 ConfigMaps, a Deployment and a Service.
const componentObjects = 20

// productWorkers is how many clusters the product reconciler reconciles at
// once (its default); with the object engine's writes per pass it gives the
// raw writer's concurrency.
const productWorkers = 4

// scaleRow is one workload's figures.
type scaleRow struct {
	workload string
	objects  int
	// cold converge: the operator from the first resource created to its
	// last object created; the raw writer creating the same objects (the
	// median of rawRounds rounds) with as many creates in flight as the
	// operator may have, and with referenceWorkers.
	cold, raw, rawReference time.Duration
	// no-op resync: one pass of every resource with nothing to change.
	noopWrites, noopReads int
	// edits of managed objects reverted through the watch.
	edits                   int
	editMedian, editMax     time.Duration
	editWrites              int
	editStatusWrites        int
	retireWrites, retireMin int // zero retireMin: not measured
	// retireReads are the get and list requests (every read the cache does
	// not serve) while the role groups retire; resources is how many
	// resources retired one.
	retireReads, resources int
	// reconciles is how many passes the cold converge took.
	reconciles int
	// heapMiBPer1k is the heap in use (testkit.HeapInUse) the workload
	// added per 1,000 objects, liveMiBPer1k the live heap
	// (testkit.HeapLive), without the allocator's free slots.
	heapMiBPer1k, liveMiBPer1k float64
	inventoryBytesPerObj       float64
	eventsAsked, eventsLost    int
	// coldRequests are the operator's requests during the cold converge.
	coldRequests apicount.Snapshot
	// coldCPU is the CPU time this process (the operator, and the
	// benchmark's once-a-second look at the resources) used from the
	// first resource's creation until every resource settled.
	coldCPU time.Duration
}

func (r scaleRow) coldRatio() float64 { return r.raw.Seconds() / r.cold.Seconds() }

// referenceRatio is the cold converge's pace against the raw writer of
// referenceWorkers.
func (r scaleRow) referenceRatio() float64 { return r.rawReference.Seconds() / r.cold.Seconds() }

// rate is n objects per d, per second.
func rate(n int, d time.Duration) float64 { return float64(n) / d.Seconds() }

func perObject(n, objects int) float64 { return float64(n) / float64(objects) }

// report reports the row's figures as benchmark metrics.
func (r scaleRow) report(b *testing.B) {
	b.ReportMetric(float64(r.objects), "objects")
	b.ReportMetric(rate(r.objects, r.cold), "objects/s")
	b.ReportMetric(rate(r.objects, r.raw), "raw-objects/s")
	b.ReportMetric(r.coldRatio(), "cold/raw")
	b.ReportMetric(rate(r.objects, r.rawReference), "raw4-objects/s")
	b.ReportMetric(r.referenceRatio(), "cold/raw4")
	b.ReportMetric(perObject(r.noopWrites, r.objects), "noop-writes/obj")
	b.ReportMetric(perObject(r.noopReads, r.objects), "noop-uncached-reads/obj")
	b.ReportMetric(float64(r.editMedian.Milliseconds()), "edit-revert-ms")
	b.ReportMetric(float64(r.editWrites)/float64(max(r.edits, 1)), "writes/edit")
	if r.retireMin > 0 {
		b.ReportMetric(float64(r.retireWrites)/float64(r.retireMin), "retire-writes/min")
	}
	b.ReportMetric(r.heapMiBPer1k, "heap-MiB/1k-obj")
	b.ReportMetric(float64(r.coldCPU.Milliseconds())/float64(max(r.objects, 1)), "cold-cpu-ms/obj")
	b.ReportMetric(r.liveMiBPer1k, "live-heap-MiB/1k-obj")
	b.ReportMetric(r.inventoryBytesPerObj, "inventory-B/obj")
	b.ReportMetric(float64(r.eventsLost), "events-dropped")
}

// scaleTable prints rows as the README's table.
func scaleTable(rows []scaleRow) string {
	var b strings.Builder
	b.WriteString("| workload | objects | cold converge objects/s (raw) | ÷ raw | ÷ raw, 4 workers | no-op writes/obj | no-op uncached reads/obj | edit reverted: median (max), writes/edit | retire writes ÷ min | heap MiB/1k obj | inventory B/obj | events dropped |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		retire := "—"
		if r.retireMin > 0 {
			retire = fmt.Sprintf("%.2f (%d ÷ %d)", float64(r.retireWrites)/float64(r.retireMin), r.retireWrites, r.retireMin)
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f (%.0f) | %.2f | %.2f (%.0f) | %s | %s | %s (%s), %.1f | %s | %.2f | %.0f | %d of %d |\n",
			r.workload, r.objects, rate(r.objects, r.cold), rate(r.objects, r.raw), r.coldRatio(),
			r.referenceRatio(), rate(r.objects, r.rawReference),
			trim(perObject(r.noopWrites, r.objects)), trim(perObject(r.noopReads, r.objects)),
			r.editMedian.Round(time.Millisecond), r.editMax.Round(time.Millisecond), float64(r.editWrites)/float64(max(r.edits, 1)),
			retire, r.heapMiBPer1k, r.inventoryBytesPerObj, r.eventsLost, r.eventsAsked)
	}
	return b.String()
}

// growth says how each figure of b grows to c, per object where the
// figure is one.
func growth(b, c scaleRow) string {
	ratio := func(x, y float64) string {
		if x == 0 && y == 0 {
			return "0 → 0"
		}
		if x == 0 {
			return fmt.Sprintf("0 → %s", trim(y))
		}
		return fmt.Sprintf("×%.2f", y/x)
	}
	lines := []string{
		fmt.Sprintf("objects: %d → %d (×%.1f)", b.objects, c.objects, float64(c.objects)/float64(b.objects)),
		fmt.Sprintf("cold converge time: %s → %s (%s; objects/s %s)", b.cold.Round(time.Millisecond), c.cold.Round(time.Millisecond),
			ratio(b.cold.Seconds(), c.cold.Seconds()), ratio(float64(b.objects)/b.cold.Seconds(), float64(c.objects)/c.cold.Seconds())),
		fmt.Sprintf("cold ÷ raw: %.2f → %.2f", b.coldRatio(), c.coldRatio()),
		fmt.Sprintf("no-op writes per object: %s → %s", trim(perObject(b.noopWrites, b.objects)), trim(perObject(c.noopWrites, c.objects))),
		fmt.Sprintf("no-op uncached reads per object: %s → %s", trim(perObject(b.noopReads, b.objects)), trim(perObject(c.noopReads, c.objects))),
		fmt.Sprintf("edit reverted, median: %s → %s (%s)", b.editMedian.Round(time.Millisecond), c.editMedian.Round(time.Millisecond),
			ratio(b.editMedian.Seconds(), c.editMedian.Seconds())),
		fmt.Sprintf("heap per 1,000 objects: %.2f → %.2f MiB (%s)", b.heapMiBPer1k, c.heapMiBPer1k, ratio(b.heapMiBPer1k, c.heapMiBPer1k)),
		fmt.Sprintf("inventory bytes per object: %.0f → %.0f (%s)", b.inventoryBytesPerObj, c.inventoryBytesPerObj, ratio(b.inventoryBytesPerObj, c.inventoryBytesPerObj)),
	}
	return strings.Join(lines, "\n")
}

// requestsPerObject summarizes requests by verb and resource, per object,
// events and leases aside.
func requestsPerObject(s apicount.Snapshot, objects int) string {
	var parts []string
	for _, line := range strings.Split(strings.TrimSpace(objectRequests(s).String()), "\n") {
		key, n, ok := strings.Cut(line, ": ")
		if !ok || strings.Contains(key, " /") {
			continue // discovery
		}
		v, _ := strconv.Atoi(n)
		parts = append(parts, fmt.Sprintf("%s %s", key, trim(perObject(v, objects))))
	}
	return strings.Join(parts, ", ")
}

// trim formats a small figure without trailing zeros.
func trim(f float64) string {
	if f == math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

// BenchmarkScale measures (a) product clusters of two roles with two role
// groups each, (b) and (c) one component of 1,000 and 5,000 objects, (d)
// 100 components of 20 objects, and prints the table e2e/README.md
// publishes, with how each figure grows from (b) to (c).
func BenchmarkScale(b *testing.B) {
	cp := env.Require(b)
	var rows []scaleRow
	clusters := intEnv(b, ScaleClustersEnv, 200)
	replicas := countEnv(b, ScaleReplicasEnv, 1)
	b.Run(fmt.Sprintf("products-%dx2x2", clusters), func(b *testing.B) {
		rows = append(rows, benchProducts(b, cp, clusters, int32(replicas)))
		rows[len(rows)-1].report(b)
	})
	var comps []scaleRow
	for i, n := range intsEnv(b, ScaleObjectsEnv, []int{1000, 5000}) {
		b.Run(fmt.Sprintf("component-%d", n), func(b *testing.B) {
			r := benchComponent(b, cp, fmt.Sprintf("(%c)", 'b'+i), n, int32(replicas))
			r.report(b)
			rows = append(rows, r)
			comps = append(comps, r)
		})
	}
	components := intEnv(b, ScaleComponentsEnv, 100)
	b.Run(fmt.Sprintf("components-%dx%d", components, componentObjects), func(b *testing.B) {
		r := benchComponents(b, cp, fmt.Sprintf("(%c) %d components", 'b'+len(comps), components), components, componentObjects, int32(replicas))
		r.report(b)
		rows = append(rows, r)
	})
	// Printed, not logged: make bench shows it without -v.
	fmt.Printf("\nscale table (raw writer concurrency: %d for products, %d for a component, %d for many; the reference raw writer: %d):\n\n%s\n",
		productWorkers*apply.DefaultConcurrency, apply.DefaultConcurrency,
		component.DefaultMaxConcurrentReconciles*apply.DefaultConcurrency, referenceWorkers, scaleTable(rows))
	for _, r := range rows {
		fmt.Printf("%s, %d objects, cold converge requests per object: %s\n", r.workload, r.objects, requestsPerObject(r.coldRequests, r.objects))
	}
	fmt.Printf("\nresource-level costs:\n\n%s\n", costsTable(rows))
	if len(comps) >= 2 {
		fmt.Printf("\ngrowth from %d to %d objects:\n%s\n", comps[0].objects, comps[len(comps)-1].objects, growth(comps[0], comps[len(comps)-1]))
	}
}

// processCPU returns the CPU time this process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("reading the process's CPU time: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
