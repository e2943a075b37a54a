package servertest_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// A hook's retriable error keeps the shop Pending (reason Retrying) and is
// retried after its own delay; a hook's other error is the Error state.
// Hooks see the pass's clients and may write the status.
func TestHookErrors(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	var attempts, post atomic.Int32
	op := startOperator(t, cp, ns, setup{generator: noteGenerator, hooks: func(r *component.Reconciler[*shop.Shop]) {
		r.WithPreReconcileHook(func(ctx context.Context, c client.Client, s *shop.Shop) error {
			if component.ClientFromContext(ctx) == nil {
				return errors.New("no target client in the context")
			}
			if s.Spec.Message == "broken" {
				return errors.New("the payment service refuses this shop")
			}
			if attempts.Add(1) < 3 {
				return failure.Retriable(errors.New("the payment service is starting"), 200*time.Millisecond)
			}
			return nil
		}).WithPostReconcileHook(func(ctx context.Context, c client.Client, s *shop.Shop) error {
			post.Add(1)
			return nil
		})
	}})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "hooked"})
	key := client.ObjectKey{Namespace: ns, Name: "front"}

	waitShop(t, cp.Client, key, time.Minute, func(s *shop.Shop) bool {
		c := s.Status.ReadyCondition()
		return s.Status.State == componentv1alpha1.StatePending && c != nil && c.Reason == componentv1alpha1.ReasonRetrying &&
			strings.Contains(c.Message, "pre-reconcile hook 0: the payment service is starting")
	})
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	if attempts.Load() < 3 || post.Load() == 0 {
		t.Errorf("pre-reconcile ran %d times, post-reconcile %d times", attempts.Load(), post.Load())
	}
	waitCounter(t, "opkit_component_reconcile_errors_total", map[string]string{"controller": op.name, "class": "retriable"}, 2)

	s.Spec.Message = "broken"
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	s = waitState(t, cp.Client, key, componentv1alpha1.StateError, componentv1alpha1.ReasonError, time.Minute)
	if msg := s.Status.ReadyCondition().Message; !strings.Contains(msg, "refuses this shop") {
		t.Errorf("message %q lacks the hook's error", msg)
	}
	waitCounter(t, "opkit_component_reconcile_errors_total", map[string]string{"controller": op.name, "class": "other"}, 1)
	note := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-note", note)
	if note.Data["message"] != "hooked" {
		t.Errorf("objects applied although the pre-reconcile hook failed: %q", note.Data["message"])
	}
}
