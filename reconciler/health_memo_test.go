package reconciler

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestPodChecksAreReusedForOneWait(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := newPodChecks(clk, 10*time.Second)
	a := podCheckKey{owner: "uid-1", statefulSet: "c-server-a"}
	b := podCheckKey{owner: "uid-2", statefulSet: "c-server-a"}

	if _, ok := c.recent(a); ok {
		t.Fatal("a group never listed has a recent result")
	}
	c.record(a, podReport{failing: []string{"pod c-server-a-0: failed"}})
	got, ok := c.recent(a)
	if !ok || !cmp.Equal(got.failing, []string{"pod c-server-a-0: failed"}) {
		t.Errorf("right after the listing: %v, %v", got, ok)
	}
	if _, ok := c.recent(b); ok {
		t.Error("another owner's group of the same name reads the result")
	}
	clk.SetTime(clk.Now().Add(9 * time.Second))
	if _, ok := c.recent(a); !ok {
		t.Error("the result expired before the interval ended")
	}
	clk.SetTime(clk.Now().Add(time.Second))
	if _, ok := c.recent(a); ok {
		t.Error("the result is still used once the interval ended")
	}
	c.forget(a)
	if _, ok := c.recent(a); ok {
		t.Error("a forgotten group's result is still used")
	}
}

// The waits of a group that stays unsettled without a failing or refused
// pod double up to maxPodCheckWaits intervals; a failing or refused pod
// brings them back to one.
func TestPodCheckWaitsGrowWhileNothingFails(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := newPodChecks(clk, 10*time.Second)
	k := podCheckKey{owner: "uid-1", statefulSet: "c-server-a"}
	waitOf := func() time.Duration {
		t.Helper()
		for d := time.Second; d <= time.Minute; d += time.Second {
			clk.SetTime(clk.Now().Add(time.Second))
			if _, ok := c.recent(k); !ok {
				return d
			}
		}
		t.Fatal("the result never expired")
		return 0
	}
	var got []time.Duration
	failing := podReport{failing: []string{"pod c-server-a-0: failed"}}
	refused := podReport{refused: []string{"pod c-server-a-0 refused: forbidden"}}
	for _, report := range []podReport{{}, {}, {}, {}, {}, failing, {}, {}, refused, {}} {
		c.record(k, report)
		got = append(got, waitOf())
	}
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 40 * time.Second, 40 * time.Second,
		10 * time.Second, 10 * time.Second, 20 * time.Second, 10 * time.Second, 10 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("waits between listings (-want +got):\n%s", diff)
	}
}

func TestPodChecksDropWhatNoGroupAsksFor(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := newPodChecks(clk, 10*time.Second)
	c.record(podCheckKey{owner: "uid-1", statefulSet: "gone"}, podReport{})
	clk.SetTime(clk.Now().Add(79 * time.Second))
	c.record(podCheckKey{owner: "uid-1", statefulSet: "kept"}, podReport{})
	if n := c.len(); n != 2 {
		t.Errorf("%d results kept, want both (neither older than twice the longest wait)", n)
	}
	clk.SetTime(clk.Now().Add(time.Second))
	c.record(podCheckKey{owner: "uid-1", statefulSet: "new"}, podReport{})
	if n := c.len(); n != 2 {
		t.Errorf("%d results kept, want 2 (the one of 80 s ago dropped)", n)
	}
}
