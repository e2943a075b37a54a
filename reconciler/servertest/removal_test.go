package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A role group removed from the spec is retired by the orphan cleaner, not
// pruned: its StatefulSet is scaled to zero and drained before its objects
// are deleted, the ledger forgets it once nothing is left, and the other
// group is untouched.
func TestRemovedRoleGroupIsDrainedThenReclaimed(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "shrink", map[string]map[string]int32{"server": {"keep": 1, "old": 2}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	old := builders.RoleGroupResourceName("shrink", "server", "old")
	keep := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("shrink", "server", "keep")}, keep); err != nil {
		t.Fatal(err)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		delete(c.Spec.Roles["server"].RoleGroups, "old")
	}); err != nil {
		t.Fatal(err)
	}
	// Drained first: the StatefulSet is seen at zero replicas before it goes.
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		sts := &appsv1.StatefulSet{}
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: old}, sts)
		if apierrors.IsNotFound(err) {
			return "deleted before it was seen scaled down", false, errDeletedTooSoon
		}
		return "", err == nil && sts.Spec.Replicas != nil && *sts.Spec.Replicas == 0, err
	}, time.Minute); err != nil {
		t.Fatalf("the removed group was not scaled down first: %v", err)
	}
	waitEvent(t, cp.Client, ns, "shrink", reconciler.ReasonOrphanCleanup, "ScaledDown", old)
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		var left []string
		for _, o := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}} {
			if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: old}, o); err == nil {
				left = append(left, old)
			}
		}
		return strings.Join(left, ","), len(left) == 0, nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("the removed group's objects are not reclaimed: %v", err)
	}
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionOrphanCleanupPending, "False", "", time.Minute)
	for _, e := range got.Status.RoleGroups {
		if e.Group == "old" {
			t.Errorf("the ledger still holds the reclaimed group: %+v", got.Status.RoleGroups)
		}
	}
	after := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(keep), after); err != nil {
		t.Fatal(err)
	}
	if after.UID != keep.UID || after.Generation != keep.Generation {
		t.Errorf("the kept group's StatefulSet changed: generation %d → %d", keep.Generation, after.Generation)
	}
}

var errDeletedTooSoon = apierrors.NewBadRequest("the StatefulSet was deleted before it was drained")

// Waiting out a removed group's grace period costs no write: the pending
// condition names the stage's deadline, which does not move from pass to
// pass.
func TestWaitingOutTheGracePeriodWritesNothing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.Orphan.GracePeriod = time.Hour
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour
	clock := clocktesting.NewFakeClock(time.Now())
	cfg.Clock = clock
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "grace", map[string]map[string]int32{"server": {"keep": 1, "old": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		delete(c.Spec.Roles["server"].RoleGroups, "old")
	}); err != nil {
		t.Fatal(err)
	}
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionOrphanCleanupPending, "True", reconciler.ReasonCleanupPending, time.Minute)
	if msg := conditionMessage(got, commonsv1alpha1.ConditionOrphanCleanupPending); !strings.Contains(msg, "server/old: Grace until ") {
		t.Errorf("pending message %q does not name the stage and its deadline", msg)
	}
	settle(t, op, key)
	before := op.count.Snapshot()
	for range 3 {
		clock.Step(10 * time.Second) // the grace period goes on between passes
		if _, err := op.r.Reconcile(ctx(t), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	}
	d := op.count.Snapshot().Sub(before)
	events := d[apicount.Key{Verb: "create", Resource: "events.events.k8s.io"}] + d[apicount.Key{Verb: "patch", Resource: "events.events.k8s.io"}]
	if d.Writes()-events != 0 {
		t.Errorf("passes during the grace period wrote (events aside):\n%s", d)
	}
}
