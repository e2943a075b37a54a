package servertest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// Edits of applied objects are reverted through the watches on their
// kinds: the periodic pass is an hour away, so only a watch event can
// bring the pass that reverts them.
func TestLiveEditRevertedThroughTheWatch(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{opts: component.Options{RequeueInterval: time.Hour}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "front"}, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)

	settings := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-settings", settings)
	settings.Data["message"] = "defaced"
	reverted(t, cp.Client, settings, func(o client.Object) bool {
		return o.(*corev1.ConfigMap).Data["message"] == "welcome"
	})

	web := &appsv1.Deployment{}
	get(t, cp.Client, ns, "front-web", web)
	web.Spec.Replicas = ptr(int32(4))
	reverted(t, cp.Client, web, func(o client.Object) bool {
		return *o.(*appsv1.Deployment).Spec.Replicas == 1
	})

	// A deleted object comes back too.
	routes := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-routes", routes)
	if err := cp.Client.Delete(t.Context(), routes); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		back := &corev1.ConfigMap{}
		found := get(t, cp.Client, ns, "front-routes", back)
		return found, found && back.UID != routes.UID, nil
	}, revertDeadline); err != nil {
		t.Fatalf("deleted ConfigMap not recreated: %v", err)
	}
	t.Logf("deleted ConfigMap recreated after %s", time.Since(start))
}

// revertDeadline bounds the wait for a revert: far below the hour of the
// periodic pass, far above what a loaded machine needs for a watch event.
const revertDeadline = 30 * time.Second

// reverted writes obj and waits until isReverted(obj) holds again.
func reverted(t *testing.T, c client.Client, obj client.Object, isReverted func(client.Object) bool) {
	t.Helper()
	if err := c.Update(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	key := client.ObjectKeyFromObject(obj)
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		if err := c.Get(ctx, key, obj); err != nil {
			return "", false, err
		}
		return obj.GetResourceVersion(), isReverted(obj), nil
	}, revertDeadline); err != nil {
		t.Fatalf("%T %s not reverted: %v", obj, key, err)
	}
	t.Logf("%T %s reverted after %s", obj, key, time.Since(start))
}

// A pass that finds everything as it is writes nothing: no object, no
// status, no event.
func TestPassWithoutChangesWritesNothing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	counter := apicount.New()
	var passes atomic.Int32
	op := startOperator(t, cp, ns, setup{counter: counter, hooks: func(r *component.Reconciler[*shop.Shop]) {
		r.WithPostReconcileHook(func(context.Context, client.Client, *shop.Shop) error {
			passes.Add(1)
			return nil
		})
	}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	ready := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	// The Ready event follows the status that says so: once it is stored,
	// every write of the passes so far has been counted.
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonReady)

	before, n := counter.Snapshot(), passes.Load()
	for range 3 {
		if err := op.r.Trigger(t.Context(), ns, "front"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int32, bool, error) {
		return passes.Load() - n, passes.Load() > n, nil
	}, 10*time.Second); err != nil {
		t.Fatalf("no pass after Trigger: %v", err)
	}
	delta := counter.Snapshot().Sub(before)
	if delta.Writes() != 0 {
		t.Errorf("passes over an unchanged shop wrote:\n%s", delta)
	}
	after := &shop.Shop{}
	get(t, cp.Client, ns, "front", after)
	if after.ResourceVersion != ready.ResourceVersion {
		t.Errorf("the shop changed: resourceVersion %s → %s, status %+v", ready.ResourceVersion, after.ResourceVersion, after.Status.Status)
	}
	t.Logf("%d passes after Trigger; requests: %d reads, %d writes", passes.Load()-n, delta.Reads(), delta.Writes())
}

func ptr[T any](v T) *T { return &v }
