package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/builders"
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

// A role group that waits on someone else's object does not hold back the
// retry of a server error in another group: the pass reports the wait,
// and the failed write is retried with the backoff, not after the wait's
// delay or the progress interval.
func TestServerErrorBesideAWaitIsRetriedSoon(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	// Off while the cluster settles; then the first two StatefulSet
	// updates answer 500, and no draw hits after them. The first failed
	// pass writes its status, whose watch event starts the second; that
	// one fails the same way and finds nothing to write, so no event
	// brings a third: only the pass's own schedule does.
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{{
		Verbs: []string{"update"}, Resources: []string{"statefulsets.apps"}, Fault: faults.InternalError, Rate: 1e-12, First: 2,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	inj.SetEnabled(false)
	// Someone else's object holds the name of group gateway/default's
	// ConfigMap.
	if err := cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: builders.RoleGroupResourceName("mixed", "gateway", "default"),
		Annotations: map[string]string{operatorName + "/" + apply.AnnotationOwnerID: "someone-else"},
	}}); err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig()
	cfg.ProgressInterval = 10 * time.Minute
	cfg.HealthCheckInterval = 10 * time.Minute
	startOperator(t, cp, ns, cfg, inj.WrapTransport)

	cr := newCluster(ns, "mixed", map[string]map[string]int32{"server": {"default": 1}, "gateway": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitsForOwner := func(ctx context.Context) (string, bool, error) {
		got := &sampleCluster{}
		if err := cp.Client.Get(ctx, key, got); err != nil {
			return "", false, err
		}
		msg := conditionMessage(got, commonsv1alpha1.ConditionWaiting)
		avail := meta.FindStatusCondition(got.Status.Conditions, commonsv1alpha1.ConditionAvailable)
		return msg, got.Status.ObservedGeneration == got.Generation && strings.Contains(msg, "someone-else") &&
			!strings.Contains(msg, "fault injected") && avail != nil && avail.Status == metav1.ConditionTrue, nil
	}
	if _, err := testkit.WaitFor(t.Context(), waitsForOwner, 2*time.Minute); err != nil {
		t.Fatalf("the cluster did not settle beside the foreign object: %v", err)
	}

	inj.SetEnabled(true)
	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		g := c.Spec.Roles["server"].RoleGroups["default"]
		g.Replicas = ptrTo(int32(2))
		c.Spec.Roles["server"].RoleGroups["default"] = g
	}); err != nil {
		t.Fatal(err)
	}
	// Well within apply.OwnershipRetryDelay and the progress interval.
	const soon = 30 * time.Second
	server := client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("mixed", "server", "default")}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (int32, bool, error) {
		sts := &appsv1.StatefulSet{}
		if err := cp.Client.Get(ctx, server, sts); err != nil {
			return 0, false, err
		}
		return *sts.Spec.Replicas, *sts.Spec.Replicas == 2, nil
	}, soon); err != nil {
		t.Fatalf("StatefulSet %s was not scaled: %v (faults injected: %v)", server.Name, err, inj.Counts())
	}
	if got := inj.Total(); got != 2 {
		t.Fatalf("%d faults injected, want the two forced 500s", got)
	}
}

// A cluster that waits for someone else's object keeps saying so while
// transient errors come and go: a pass that meets only a server error
// leaves Waiting and ReconcileComplete as they are, instead of replacing
// the lasting cause with an error the next pass is unlikely to meet.
func TestTransientErrorKeepsTheLastingCause(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	// Once enabled, every read of a ConfigMap through the API answers 500:
	// the foreign ConfigMap is not in the operator's cache, so the pass
	// fails on it with the server error before it can see the owner.
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{{
		Verbs: []string{"get"}, Resources: []string{"configmaps"}, Fault: faults.InternalError, Rate: 1,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	inj.SetEnabled(false)
	if err := cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: builders.RoleGroupResourceName("held", "gateway", "default"),
		Annotations: map[string]string{operatorName + "/" + apply.AnnotationOwnerID: "someone-else"},
	}}); err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig()
	cfg.ProgressInterval = 10 * time.Minute
	cfg.HealthCheckInterval = 10 * time.Minute
	op := startOperator(t, cp, ns, cfg, inj.WrapTransport)
	cr := newCluster(ns, "held", map[string]map[string]int32{"gateway": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waits := func(got *sampleCluster) bool {
		msg := conditionMessage(got, commonsv1alpha1.ConditionWaiting)
		return got.Status.ObservedGeneration == got.Generation && strings.Contains(msg, "someone-else") &&
			!strings.Contains(conditionMessage(got, commonsv1alpha1.ConditionReconcileComplete), "fault injected")
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		got := &sampleCluster{}
		err := cp.Client.Get(ctx, key, got)
		return conditionMessage(got, commonsv1alpha1.ConditionWaiting), err == nil && waits(got), err
	}, 2*time.Minute); err != nil {
		t.Fatalf("the cluster does not wait for the foreign object: %v", err)
	}

	inj.SetEnabled(true)
	// Passes of one cluster never overlap, so each of these runs alone; a
	// pass that finds the cached copy older than the last status write
	// waits for the cache, and the next one is tried.
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (int, bool, error) {
		// The pass fails with the injected error: that is the point.
		_, _ = op.r.Reconcile(ctx, ctrl.Request{NamespacedName: key})
		return inj.Total(), inj.Total() > 0, nil
	}, time.Minute); err != nil {
		t.Fatalf("no pass met the fault: %v", err)
	}
	got := &sampleCluster{}
	if err := cp.Client.Get(t.Context(), key, got); err != nil {
		t.Fatal(err)
	}
	if !waits(got) {
		t.Errorf("the cluster no longer names what it waits for: Waiting %q, ReconcileComplete %q",
			conditionMessage(got, commonsv1alpha1.ConditionWaiting), conditionMessage(got, commonsv1alpha1.ConditionReconcileComplete))
	}
}
