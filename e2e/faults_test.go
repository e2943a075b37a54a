package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit/faults"
)

// faultRules are the faults of the fault scenarios, tried in this order
// for each request (the first whose draw hits answers it):
//
//   - 20 % of updates answer 409 Conflict;
//   - 10 % of requests answer 429 with Retry-After: 1 (client-go waits and
//     retries these itself, up to ten times, before the caller sees one);
//   - 2.5 % answer 500 and 2.5 % answer 503: 5 % server errors on every
//     verb;
//   - every watch that got through is cut after 1.5 to 4.5 seconds.
//
// The first update and the first request answer 409 and 429 whatever the
// seed: a CI-sized run sends only a handful of updates, and without that
// many seeds would inject no conflict at all.
func faultRules() []faults.Rule {
	return []faults.Rule{
		{Verbs: []string{"update"}, Fault: faults.Conflict, Rate: 0.20, First: 1},
		{Fault: faults.TooManyRequests, Rate: 0.10, RetryAfter: time.Second, First: 1},
		{Fault: faults.InternalError, Rate: 0.025},
		{Fault: faults.ServiceUnavailable, Rate: 0.025},
		{Fault: faults.WatchCut, Rate: 1, CutAfter: 3 * time.Second},
	}
}

// Product clusters converge under seeded faults to exactly the end state
// of a fault-free run: the same objects with the same specs and the same
// status, compared field by field; nothing of someone else's touched;
// nothing outside the inventories; no Degraded condition caused by a rate
// limit. How much longer the faulted run takes is a figure of
// BenchmarkConvergeUnderFaults, not a bound of the test.
func TestProductsConvergeUnderFaults(t *testing.T) {
	convergeUnderFaults(t, products, intEnv(t, ClustersEnv, 3))
}

// Components converge under the same faults to exactly the fault-free end
// state, with the same guarantees; no Error state caused by a rate limit.
func TestComponentsConvergeUnderFaults(t *testing.T) {
	convergeUnderFaults(t, bundles, intEnv(t, ComponentsEnv, 3))
}

func convergeUnderFaults(t *testing.T, w workload, n int) {
	clean, faulted, inj := runWithAndWithoutFaults(t, w, n)
	t.Logf("%d %s: fault-free %s, faulted %s (%.2fx); faults injected: %v",
		n, w.what, clean.elapsed.Round(time.Millisecond), faulted.elapsed.Round(time.Millisecond),
		faulted.elapsed.Seconds()/clean.elapsed.Seconds(), inj.Counts())

	for _, o := range []outcome{clean, faulted} {
		for _, err := range o.exits {
			t.Logf("%s: the operator exited and was restarted: %v", o.ns, err)
		}
	}
	if len(clean.exits) > 0 {
		t.Errorf("the operator exited %d times without faults", len(clean.exits))
	}
	if diff := diffStates(clean.state, faulted.state); diff != "" {
		t.Errorf("the faulted end state differs from the fault-free one (-fault-free +faulted):\n%s", diff)
	}
	for _, o := range []outcome{clean, faulted} {
		for _, p := range o.problems {
			t.Errorf("%s: %s", o.ns, p)
		}
		for _, w := range o.writes {
			if w.Verb == "delete" || w.Verb == "deletecollection" {
				t.Errorf("%s: a cold converge deleted %s %s", o.ns, w.Resource, w.Name)
			}
		}
	}
	for _, f := range faulted.failures {
		if rateLimited(f) {
			t.Errorf("a rate limit was reported as a failure: %s", f)
		}
	}
	if len(faulted.failures) > 0 {
		t.Logf("failures shown under faults:\n%s", strings.Join(faulted.failures, "\n"))
	}
	injected := map[faults.Fault]int{}
	for _, c := range inj.Counts() {
		injected[c.Fault] += c.N
	}
	for _, f := range []faults.Fault{faults.Conflict, faults.TooManyRequests, faults.WatchCut} {
		if injected[f] == 0 {
			t.Errorf("no %s was injected: the run proves nothing about it", f)
		}
	}
}

// runWithAndWithoutFaults runs the workload fault-free, then under the
// seeded faults, each in a namespace of its own, and returns both
// outcomes and the injector. The deadlines are safety nets, far above what
// a loaded machine needs; the time the runs take is measured, not bounded.
func runWithAndWithoutFaults(t testing.TB, w workload, n int) (clean, faulted outcome, inj *faults.Injector) {
	cp := env.Require(t)
	s := seed(t)
	timeout := time.Duration(n)*10*time.Second + 2*time.Minute
	clean = w.run(t, cp, n, nil, timeout)
	inj, err := faults.New(faults.Options{Seed: s, Rules: faultRules()})
	if err != nil {
		t.Fatal(err)
	}
	faulted = w.run(t, cp, n, inj, 3*timeout)
	return clean, faulted, inj
}

// BenchmarkConvergeUnderFaults reports how much longer the fault scenarios
// take under faults than without, products and components, at the size of
// the test (OPKIT_E2E_CLUSTERS, OPKIT_E2E_COMPONENTS): the faults impose
// waits by protocol (a second per 429, the backoff after a 5xx or a
// conflict, client-go's backoff after a failed watch, the restart of an
// operator whose start failed).
func BenchmarkConvergeUnderFaults(b *testing.B) {
	for _, c := range []struct {
		w workload
		n int
	}{{products, intEnv(b, ClustersEnv, 3)}, {bundles, intEnv(b, ComponentsEnv, 3)}} {
		b.Run(c.w.what, func(b *testing.B) {
			var clean, faulted time.Duration
			for b.Loop() {
				cl, fa, _ := runWithAndWithoutFaults(b, c.w, c.n)
				clean += cl.elapsed
				faulted += fa.elapsed
			}
			b.ReportMetric(clean.Seconds()/float64(b.N), "clean-s")
			b.ReportMetric(faulted.Seconds()/float64(b.N), "faulted-s")
			b.ReportMetric(faulted.Seconds()/clean.Seconds(), "faulted/clean")
		})
	}
}

// rateLimited reports whether a condition message blames a rate limit.
func rateLimited(msg string) bool {
	for _, s := range []string{"429", "rate-limited", "Too Many Requests", "TooManyRequests", "rate limit"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
