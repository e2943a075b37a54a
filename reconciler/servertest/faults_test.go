package servertest_test

import (
	"context"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// A 429 backs the pass off: it says so in an event, never reports the
// cluster degraded, and the cluster converges once the server relents.
func TestRateLimitBacksOffWithoutDegrading(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	inj, err := faults.New(faults.Options{Seed: 7, Rules: []faults.Rule{{
		Verbs: []string{"create"}, Resources: []string{"statefulsets.apps"}, Fault: faults.TooManyRequests, Rate: 1,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	startOperator(t, cp, ns, baseConfig(), inj.WrapTransport)

	cr := newCluster(ns, "busy", map[string]map[string]int32{"server": {"default": 1}, "gateway": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitEvent(t, cp.Client, ns, "busy", reconciler.ReasonRateLimited, "backing off")
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		return inj.Total(), inj.Total() >= 3, nil
	}, time.Minute); err != nil {
		t.Fatalf("the pass did not retry after backing off: %v", err)
	}
	got := &sampleCluster{}
	if err := cp.Client.Get(t.Context(), key, got); err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Status.Conditions {
		if c.Type == commonsv1alpha1.ConditionDegraded && c.Status == "True" {
			t.Errorf("a rate limit reported the cluster degraded: %s", c.Message)
		}
	}
	inj.SetEnabled(false)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
}
