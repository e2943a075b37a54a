package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// Two replicas of the operator elect a leader. The leader is killed in the
// middle of its passes; the other replica takes over after the lease
// expires and converges every cluster. The two never write at once: every
// write of the second comes after the last write of the first.
func TestLeaderKilledMidPassIsReplaced(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	const n = 4
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: productOperator(t, ns, operatorOptions{leaderElection: "e2e-leader"})})
	if err != nil {
		t.Fatal(err)
	}
	first := h.Start(0)
	t.Cleanup(func() { _ = first.Stop() })
	for i := range n {
		if err := cp.Client.Create(ctx, newCluster(ns, clusterName(i), productShape)); err != nil {
			t.Fatal(err)
		}
	}
	// The first replica leads once it writes; the second one starts then,
	// and must wait.
	if _, err := testkit.WaitFor(ctx, func(context.Context) (int, bool, error) {
		n := len(first.Writes())
		return n, n >= 1, nil
	}, time.Minute); err != nil {
		t.Fatalf("the first replica did not lead: %v", err)
	}
	second := h.Start(0)
	t.Cleanup(func() {
		if err := second.Stop(); err != nil {
			t.Errorf("second replica: %v", err)
		}
	})
	if _, err := testkit.WaitFor(ctx, func(context.Context) (int, bool, error) {
		n := len(first.Writes())
		return n, n >= 8, nil
	}, time.Minute); err != nil {
		t.Fatalf("the leader did not get far: %v", err)
	}
	if state, done, _ := allClustersSettled(cp.Client, ns, n)(ctx); done {
		t.Fatalf("the leader was done before it could be killed mid-pass: %s", state)
	}
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	killedAfter := first.Writes()
	t.Logf("killed the leader after %d writes", len(killedAfter))

	if _, err := testkit.WaitFor(ctx, allClustersSettled(cp.Client, ns, n), 3*time.Minute); err != nil {
		t.Fatalf("the second replica did not converge the clusters: %v", err)
	}
	took := second.Writes()
	if len(took) == 0 {
		t.Fatal("the second replica never wrote: who converged the clusters?")
	}
	last := killedAfter[len(killedAfter)-1]
	if firstOfSecond := took[0]; !firstOfSecond.At.After(last.At) {
		t.Errorf("two writers at once: the second replica wrote %s %s %s at %s, before the leader's last write %s %s %s at %s",
			firstOfSecond.Verb, firstOfSecond.Resource, firstOfSecond.Name, firstOfSecond.At.Format(time.StampMicro),
			last.Verb, last.Resource, last.Name, last.At.Format(time.StampMicro))
	}
	t.Logf("the second replica's first write came %s after the leader's last", took[0].At.Sub(last.At).Round(time.Millisecond))
	problems, err := inventoryProblems(ctx, cp.Client, ns, productName)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
