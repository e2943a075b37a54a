package reconciler

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
)

// podChecks remembers, per role group, when its pods were last listed and
// what was found, so that the pods of a group that is not settled (and the
// events about pods it lacks) are listed at most once per interval however
// many passes its StatefulSet's status changes cause. While a group stays
// unsettled and no pod of it fails or is refused, the wait doubles after
// each listing, up to maxPodCheckWaits intervals: a group whose pods take
// minutes to start (image pulls, a busy scheduler) is listed a few times,
// not every interval. A failing or refused pod stays so for longer than
// that; its report is at most one wait late.
type podChecks struct {
	mu       sync.Mutex
	clock    clock.PassiveClock
	interval time.Duration
	m        map[podCheckKey]podCheck
}

// maxPodCheckWaits bounds the wait between two listings of an unsettled
// group's pods, in intervals.
const maxPodCheckWaits = 4

// podCheckKey names a role group's StatefulSet of one cluster resource; the
// UID keeps a recreated resource from reading its predecessor's result.
type podCheckKey struct {
	owner       types.UID
	statefulSet string
}

type podCheck struct {
	at     time.Time
	wait   time.Duration
	report podReport
}

func newPodChecks(c clock.PassiveClock, interval time.Duration) *podChecks {
	return &podChecks{clock: c, interval: interval, m: map[podCheckKey]podCheck{}}
}

// recent returns what the last listing found when it is younger than the
// interval.
func (c *podChecks) recent(k podCheckKey) (podReport, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || c.clock.Since(e.at) >= e.wait {
		return podReport{}, false
	}
	return e.report, true
}

// record keeps a listing's result with the wait before the next one: one
// interval after the first listing or one that found a failing or refused
// pod, double the last wait (at most maxPodCheckWaits intervals)
// otherwise. It
// drops the results of groups that settled or went away without being
// forgotten: an unsettled group is visited at least every interval, so
// its result is never older than twice the longest wait.
func (c *podChecks) record(k podCheckKey, report podReport) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now, longest := c.clock.Now(), maxPodCheckWaits*c.interval
	wait := c.interval
	if prev, ok := c.m[k]; ok && report.empty() && prev.report.empty() {
		wait = min(2*prev.wait, longest)
	}
	for old, e := range c.m {
		if now.Sub(e.at) >= 2*longest {
			delete(c.m, old)
		}
	}
	c.m[k] = podCheck{at: now, wait: wait, report: report}
}

// empty reports a look that found nothing wrong.
func (r podReport) empty() bool { return len(r.failing) == 0 && len(r.refused) == 0 }

// forget drops a group's result: it settled, so the next time it is not
// settled its pods are listed at once.
func (c *podChecks) forget(k podCheckKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

// len is how many results are kept.
func (c *podChecks) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
