package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// Once converged, a pass makes no request at all: every read is served by
// the cache, nothing is written, no event is recorded.
func TestSettledPassMakesNoRequest(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour // no timer pass while measuring
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "quiet", map[string]map[string]int32{"server": {"a": 2, "b": 1}, "gateway": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	// Converging needs passes triggered by the pods becoming ready.
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", time.Minute)
	settle(t, op, key)

	before := op.count.Snapshot()
	for range 3 {
		if _, err := op.r.Reconcile(ctx(t), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatal(err)
		}
	}
	if d := op.count.Snapshot().Sub(before); d.Total() != 0 {
		t.Errorf("three settled passes made requests: %v", d)
	}
}

// A kubectl-edit-style change of a managed ConfigMap is reverted through
// the watch, without waiting for a timer, with one write: the ConfigMap's,
// and no status write (the inventory keeps what it recorded).
func TestLiveEditIsRevertedThroughTheWatch(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "edit", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)
	settle(t, op, key)

	name := builders.RoleGroupResourceName("edit", "server", "default")
	cm := &corev1.ConfigMap{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, cm); err != nil {
		t.Fatal(err)
	}
	want := cm.Data["server.properties"]
	cm.Data["server.properties"] = "tampered=true\n"
	before := op.count.Snapshot()
	if err := cp.Client.Update(t.Context(), cm); err != nil {
		t.Fatal(err)
	}
	edited := time.Now()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		got := &corev1.ConfigMap{}
		err := cp.Client.Get(ctx, client.ObjectKeyFromObject(cm), got)
		return got.Data["server.properties"], err == nil && got.Data["server.properties"] == want, err
	}, 30*time.Second); err != nil {
		t.Fatalf("the edit was not reverted: %v", err)
	}
	t.Logf("reverted %s after the edit", time.Since(edited).Round(time.Millisecond))
	settle(t, op, key)
	d := op.count.Snapshot().Sub(before)
	// The revert changes nothing the status records: one write in all.
	writes := d.Writes() - d[apicount.Key{Verb: "create", Resource: "events.events.k8s.io"}] - d[apicount.Key{Verb: "patch", Resource: "events.events.k8s.io"}]
	if writes != 1 || d[apicount.Key{Verb: "update", Resource: "configmaps"}] != 1 {
		t.Errorf("reverting one edit took %d writes (want one ConfigMap update, no status write):\n%s", writes, d)
	}
}

// settle waits until a pass of the cluster changes nothing (its status
// stops moving), so a test measures from a quiet start. The pass must
// start from a cache that holds the resource's latest version: a pass that
// finds the cache behind the reconciler's last status write writes
// nothing either, but says nothing of what a real pass would write.
func settle(t *testing.T, op *operator, key types.NamespacedName) {
	t.Helper()
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		live, cached := &sampleCluster{}, &sampleCluster{}
		if err := op.api.Get(ctx, key, live); err != nil {
			return "", false, err
		}
		if err := op.client.Get(ctx, key, cached); err != nil {
			return "", false, err
		}
		if cached.ResourceVersion != live.ResourceVersion {
			return fmt.Sprintf("the cache holds version %s, the API server %s", cached.ResourceVersion, live.ResourceVersion), false, nil
		}
		before := op.count.Snapshot()
		if _, err := op.r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
			return err.Error(), false, nil //nolint:nilerr // a failed pass is not a settled one: keep waiting, showing the error
		}
		d := op.count.Snapshot().Sub(before)
		return d.String(), d.Writes() == 0, nil
	}, time.Minute)
	if err != nil {
		t.Fatalf("the cluster does not settle: %v", err)
	}
}

func ctx(t *testing.T) context.Context { return testkit.Context(t) }

var _ = strings.Contains
