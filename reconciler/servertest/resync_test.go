package servertest_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A resync or a requeue of a converged cluster writes nothing, however
// much time passed since the last pass (every interval elapsed, the
// product's health check asked again): its status stays as it was, and
// with it every condition's transition time.
func TestResyncOfAConvergedClusterWritesNoStatus(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	clock := clocktesting.NewFakeClock(time.Now())
	cfg.Clock = clock
	cfg.HealthCheckInterval = time.Minute
	cfg.HealthCheck = func(context.Context, *sampleCluster) error { return nil }
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "resync", map[string]map[string]int32{"server": {"a": 1, "b": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	settle(t, op, key)
	before := &sampleCluster{}
	if err := cp.Client.Get(t.Context(), key, before); err != nil {
		t.Fatal(err)
	}

	count := op.count.Snapshot()
	for range 3 {
		clock.Step(time.Hour)
		if _, err := op.r.Reconcile(ctx(t), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	}
	// Events aside: the recorder sends the warnings of earlier passes
	// (the sample declares a role the spec does not use) when it likes.
	d := op.count.Snapshot().Sub(count)
	events := d[apicount.Key{Verb: "create", Resource: "events.events.k8s.io"}] + d[apicount.Key{Verb: "patch", Resource: "events.events.k8s.io"}]
	if n := d.Writes() - events; n != 0 {
		t.Errorf("resyncs of a converged cluster wrote %d times (events aside):\n%s", n, d)
	}
	after := &sampleCluster{}
	if err := cp.Client.Get(t.Context(), key, after); err != nil {
		t.Fatal(err)
	}
	was := map[string]metav1.Time{}
	for _, c := range before.Status.Conditions {
		was[c.Type] = c.LastTransitionTime
	}
	for _, c := range after.Status.Conditions {
		if !c.LastTransitionTime.Equal(ptrTo(was[c.Type])) {
			t.Errorf("condition %s moved its transition time from %s to %s", c.Type, was[c.Type], c.LastTransitionTime)
		}
	}
}
