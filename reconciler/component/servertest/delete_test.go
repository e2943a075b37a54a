package servertest_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

const hold = "test.opkit.dev/hold"

// Deleting a shop deletes its objects in delete waves: the settings
// (delete order 1) stay until the Deployment (delete order 0) is gone.
// Another finalizer on the shop holds the deletion back; hooks run around
// it; the finalizer goes last.
func TestDeleteInWaves(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	var mu sync.Mutex
	var calls []string
	record := func(name string) component.HookFunc[*shop.Shop] {
		return func(ctx context.Context, _ client.Client, s *shop.Shop) error {
			if component.ClientFromContext(ctx) == nil || component.LocalClientFromContext(ctx) == nil {
				t.Errorf("%s hook without the pass's clients", name)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(calls) == 0 || calls[len(calls)-1] != name {
				calls = append(calls, name)
			}
			return nil
		}
	}
	startOperator(t, cp, ns, setup{hooks: func(r *component.Reconciler[*shop.Shop]) {
		r.WithPreDeleteHook(record("pre-delete")).WithPostDeleteHook(record("post-delete"))
	}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)

	// Hold the shop and the first wave's Deployment back.
	s.Finalizers = append(s.Finalizers, hold)
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	web := &appsv1.Deployment{}
	get(t, cp.Client, ns, "front-web", web)
	web.Finalizers = append(web.Finalizers, hold)
	if err := cp.Client.Update(t.Context(), web); err != nil {
		t.Fatal(err)
	}
	if err := cp.Client.Delete(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	s = waitState(t, cp.Client, key, componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked, time.Minute)
	if !get(t, cp.Client, ns, "front-web", web) || web.DeletionTimestamp != nil {
		t.Fatalf("objects deleted while another finalizer holds the shop")
	}

	release(t, cp.Client, s)
	waitShop(t, cp.Client, key, time.Minute, func(s *shop.Shop) bool {
		return s.Status.State == componentv1alpha1.StateDeleting && get(t, cp.Client, ns, "front-web", web) && web.DeletionTimestamp != nil
	})
	// The first wave is being deleted and held: the second has not begun.
	for _, name := range []string{"front-settings"} {
		cm := &corev1.ConfigMap{}
		if !get(t, cp.Client, ns, name, cm) || cm.DeletionTimestamp != nil {
			t.Errorf("%s (delete order 1) deleted before the Deployment (delete order 0) was gone", name)
		}
	}

	release(t, cp.Client, web)
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		gone := !get(t, cp.Client, ns, "front", &shop.Shop{})
		return gone, gone, nil
	}, time.Minute); err != nil {
		t.Fatalf("shop not deleted: %v", err)
	}
	for _, name := range []string{"front-settings", "front-routes", "front-installed"} {
		if get(t, cp.Client, ns, name, &corev1.ConfigMap{}) {
			t.Errorf("ConfigMap %s left behind", name)
		}
	}
	if get(t, cp.Client, ns, "front-api", &corev1.Service{}) {
		t.Errorf("Service front-api left behind")
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(calls, []string{"pre-delete", "post-delete"}) {
		t.Errorf("hooks ran as %v, want pre-delete then post-delete", calls)
	}
}

// release removes the hold finalizer of obj.
func release(t *testing.T, c client.Client, obj client.Object) {
	t.Helper()
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatal(err)
	}
	obj.SetFinalizers(slices.DeleteFunc(obj.GetFinalizers(), func(f string) bool { return f == hold }))
	if err := c.Update(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
}

// Foreign instances of a managed type block the deletion; once the shop no
// longer declares the type, the deletion goes on.
func TestForeignInstancesOfManagedTypesBlockDeletion(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{generator: noteGenerator})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "typed",
		TypeSpec: componentv1alpha1.TypeSpec{AdditionalManagedTypes: []componentv1alpha1.ManagedType{{Kind: "ConfigMap"}}}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)

	if err := cp.Client.Delete(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	// Every namespace holds a kube-root-ca.crt ConfigMap that is not the
	// shop's.
	s = waitState(t, cp.Client, key, componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked, time.Minute)
	if msg := s.Status.ReadyCondition().Message; !strings.Contains(msg, "ConfigMap") {
		t.Errorf("message %q does not name the foreign instance", msg)
	}
	if !get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{}) {
		t.Fatalf("objects deleted while the deletion is blocked")
	}

	s.Spec.AdditionalManagedTypes = nil
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (bool, bool, error) {
		gone := !get(t, cp.Client, ns, "front", &shop.Shop{}) && !get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{})
		return gone, gone, nil
	}, time.Minute); err != nil {
		t.Fatalf("shop not deleted once unblocked: %v", err)
	}
}

// The shop's delete policy orphan keeps its objects when it goes.
func TestOrphanPolicyKeepsObjects(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{generator: noteGenerator})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "kept",
		PolicySpec: componentv1alpha1.PolicySpec{DeletePolicy: componentv1alpha1.DeletePolicyOrphan}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	if err := cp.Client.Delete(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (bool, bool, error) {
		gone := !get(t, cp.Client, ns, "front", &shop.Shop{})
		return gone, gone, nil
	}, time.Minute); err != nil {
		t.Fatalf("shop not deleted: %v", err)
	}
	if !get(t, cp.Client, ns, "front-note", &corev1.ConfigMap{}) {
		t.Errorf("the orphaned ConfigMap was deleted")
	}
}
