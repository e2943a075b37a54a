package servertest_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// A status wiped by hand (or restored from a backup taken before the
// objects were applied) is rebuilt at once: the wipe is a status write
// like the reconciler's own, which bring no pass, but one that loses the
// inventory does. The objects are adopted back, none is created again.
func TestWipedStatusIsRebuiltAtOnce(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.HealthCheckInterval = -1     // no periodic pass
	cfg.ProgressInterval = time.Hour // no timed pass while converging either
	startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "wiped", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", reconciler.ReasonComplete, 2*time.Minute)
	sts := &appsv1.StatefulSet{}
	stsKey := client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("wiped", "server", "default")}
	if err := cp.Client.Get(t.Context(), stsKey, sts); err != nil {
		t.Fatal(err)
	}

	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		cur := &sampleCluster{}
		if err := cp.Client.Get(ctx, key, cur); err != nil {
			return false, false, err
		}
		cur.Status = sampleCluster{}.Status
		err := cp.Client.Status().Update(ctx, cur)
		if apierrors.IsConflict(err) {
			return false, false, nil
		}
		return err == nil, err == nil, err
	}, 30*time.Second); err != nil {
		t.Fatalf("wiping the status: %v", err)
	}

	got, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*sampleCluster, bool, error) {
		cur := &sampleCluster{}
		if err := cp.Client.Get(ctx, key, cur); err != nil {
			return nil, false, err
		}
		st := cur.GetClusterStatus()
		return cur, len(st.RoleGroups) > 0 && len(st.RoleGroups[0].Objects.Items) > 0, nil
	}, time.Minute)
	if err != nil {
		t.Fatalf("the wiped inventory was not rebuilt: %v", err)
	}
	if c := findCondition(got, commonsv1alpha1.ConditionReconcileComplete); c == nil {
		t.Error("the rebuilt status has no ReconcileComplete condition")
	}
	after := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), stsKey, after); err != nil {
		t.Fatal(err)
	}
	if after.UID != sts.UID {
		t.Errorf("the StatefulSet was created again (uid %s, was %s)", after.UID, sts.UID)
	}
}
