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
func faultRules() []faults.Rule {
	return []faults.Rule{
		{Verbs: []string{"update"}, Fault: faults.Conflict, Rate: 0.20},
		{Fault: faults.TooManyRequests, Rate: 0.10, RetryAfter: time.Second},
		{Fault: faults.InternalError, Rate: 0.025},
		{Fault: faults.ServiceUnavailable, Rate: 0.025},
		{Fault: faults.WatchCut, Rate: 1, CutAfter: 3 * time.Second},
	}
}

// maxFaultSlowdown is how much longer than the fault-free run the faulted
// run may take to settle.
const maxFaultSlowdown = 3.0

// Product clusters converge under seeded faults to exactly the end state
// of a fault-free run: the same objects with the same specs and the same
// status, compared field by field; nothing of someone else's touched;
// nothing outside the inventories; no Degraded condition caused by a rate
// limit; within three times the fault-free time.
func TestProductsConvergeUnderFaults(t *testing.T) {
	cp := env.Require(t)
	n := intEnv(t, ClustersEnv, 3)
	s := seed(t)
	timeout := time.Duration(n)*10*time.Second + 2*time.Minute

	clean := runProducts(t, cp, n, nil, timeout)
	inj, err := faults.New(faults.Options{Seed: s, Rules: faultRules()})
	if err != nil {
		t.Fatal(err)
	}
	faulted := runProducts(t, cp, n, inj, 3*timeout)

	t.Logf("%d clusters: fault-free %s, faulted %s (%.2fx); faults injected: %v",
		n, clean.elapsed.Round(time.Millisecond), faulted.elapsed.Round(time.Millisecond),
		faulted.elapsed.Seconds()/clean.elapsed.Seconds(), inj.Counts())

	if diff := diffStates(clean.state, faulted.state); diff != "" {
		t.Errorf("the faulted end state differs from the fault-free one (-fault-free +faulted):\n%s", diff)
	}
	for _, o := range []productOutcome{clean, faulted} {
		for _, p := range o.problems {
			t.Errorf("%s: %s", o.ns, p)
		}
		for _, w := range o.writes {
			if w.Verb == "delete" || w.Verb == "deletecollection" {
				t.Errorf("%s: a cold converge deleted %s %s", o.ns, w.Resource, w.Name)
			}
		}
	}
	for _, d := range faulted.degraded {
		if rateLimited(d) {
			t.Errorf("a rate limit made a cluster Degraded: %s", d)
		}
	}
	if len(faulted.degraded) > 0 {
		t.Logf("Degraded conditions seen under faults:\n%s", strings.Join(faulted.degraded, "\n"))
	}
	if ratio := faulted.elapsed.Seconds() / clean.elapsed.Seconds(); ratio > maxFaultSlowdown {
		t.Errorf("the faulted run took %.2fx the fault-free time, more than %.0fx", ratio, maxFaultSlowdown)
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
