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

// maxFaultSlowdown is how much longer than the fault-free run the faulted
// run may take to settle, plus faultSlack: the waits the faults impose by
// protocol on the slowest resource whatever the size of the run, in
// series on its passes' writes — a second for each 429 it meets, the
// controller's backoff after a 5xx or a conflict, client-go's backoff of a
// second or more after a failed list or watch, one restart of an operator
// whose start failed. Measured at CI size (three resources, a fault-free
// run of 0.6 to 3 s), those add 2 to 11 s; a full-sized run spreads them
// over fifty resources and the factor decides.
const (
	maxFaultSlowdown = 3.0
	faultSlack       = 15 * time.Second
)

// Product clusters converge under seeded faults to exactly the end state
// of a fault-free run: the same objects with the same specs and the same
// status, compared field by field; nothing of someone else's touched;
// nothing outside the inventories; no Degraded condition caused by a rate
// limit; within three times the fault-free time.
func TestProductsConvergeUnderFaults(t *testing.T) {
	convergeUnderFaults(t, products, intEnv(t, ClustersEnv, 3))
}

// Components converge under the same faults to exactly the fault-free end
// state, with the same guarantees; no Error state caused by a rate limit.
func TestComponentsConvergeUnderFaults(t *testing.T) {
	convergeUnderFaults(t, bundles, intEnv(t, ComponentsEnv, 3))
}

func convergeUnderFaults(t *testing.T, w workload, n int) {
	cp := env.Require(t)
	s := seed(t)
	timeout := time.Duration(n)*10*time.Second + 2*time.Minute

	clean := w.run(t, cp, n, nil, timeout)
	inj, err := faults.New(faults.Options{Seed: s, Rules: faultRules()})
	if err != nil {
		t.Fatal(err)
	}
	faulted := w.run(t, cp, n, inj, 3*timeout)

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
	if limit := time.Duration(maxFaultSlowdown*float64(clean.elapsed)) + faultSlack; faulted.elapsed > limit {
		t.Errorf("the faulted run took %s, %.2fx the fault-free %s: more than %.0fx plus %s",
			faulted.elapsed.Round(time.Millisecond), faulted.elapsed.Seconds()/clean.elapsed.Seconds(),
			clean.elapsed.Round(time.Millisecond), maxFaultSlowdown, faultSlack)
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

// rateLimited reports whether a condition message blames a rate limit.
func rateLimited(msg string) bool {
	for _, s := range []string{"429", "rate-limited", "Too Many Requests", "TooManyRequests", "rate limit"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
