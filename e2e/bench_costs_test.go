package e2e_test

import (
	"fmt"
	"strings"

	"github.com/opkit-dev/opkit/testkit/apicount"
)

// costsTable prints, for each row, the resource-level costs e2e/README.md
// publishes beside the raw writer: what a reverted edit writes, what
// retiring a role group and a cold converge read past the cache, the
// status writes and passes of a cold converge, the cold converge's pace
// against the raw writers', the heap per 1,000 objects, and the CPU time
// the benchmark's process (the operator) used per object in the cold
// converge, until every resource settled.
func costsTable(rows []scaleRow) string {
	var b strings.Builder
	b.WriteString("| workload | edit reverted: object writes + status writes per edit | retire one role group: uncached get/list per resource | cold: uncached pod lists per resource | cold: status writes per resource | cold: passes per resource | cold objects/s ÷ raw writer's | ÷ raw writer of 4 workers | heap MiB/1k obj: in use (live) | cold: process CPU ms/obj |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		edits := float64(max(r.edits, 1))
		retire, resources := "—", max(r.resources, 1)
		if r.retireMin > 0 {
			retire = trim(float64(r.retireReads) / float64(resources))
		}
		perResource := func(n int) string {
			if r.resources == 0 {
				return "—"
			}
			return trim(float64(n) / float64(resources))
		}
		fmt.Fprintf(&b, "| %s | %s + %s | %s | %s | %s | %s | %.2f (%.0f ÷ %.0f) | %.2f (÷ %.0f) | %.2f (%.2f) | %.2f |\n",
			r.workload, trim(float64(r.editWrites-r.editStatusWrites)/edits), trim(float64(r.editStatusWrites)/edits),
			retire, perResource(r.coldRequests[apicount.Key{Verb: "list", Resource: "pods"}]),
			perResource(statusWrites(r.coldRequests)), perResource(r.reconciles),
			r.coldRatio(), rate(r.objects, r.cold), rate(r.objects, r.raw), r.referenceRatio(), rate(r.objects, r.rawReference),
			r.heapMiBPer1k, r.liveMiBPer1k,
			float64(r.coldCPU.Milliseconds())/float64(max(r.objects, 1)))
	}
	return b.String()
}
