package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// An object that waits for its owner to let go does not hold back the
// retry of a server error on another object of its wave: the shop reports
// the wait, and the failed update is retried with the backoff (at most the
// operator's RetryInterval), not after the wait's delay.
func TestServerErrorBesideAWaitIsRetriedSoon(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	// Off while the shop settles; then the first two ConfigMap updates
	// answer 500, and no draw hits after them. The first failed pass
	// writes its status, whose watch event starts the second; that one
	// fails the same way and finds nothing new to write, so no event
	// brings a third: only the pass's own schedule does.
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{{
		Verbs: []string{"update"}, Resources: []string{"configmaps"}, Fault: faults.InternalError, Rate: 1e-12, First: 2,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	inj.SetEnabled(false)
	op := startOperator(t, cp, ns, setup{config: func(c *rest.Config) { c.Wrap(inj.WrapTransport) }})
	// Someone else's object holds the name of the kustomization's
	// ConfigMap, in the same wave as the chart's settings.
	if err := cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: "front-routes",
		Annotations: map[string]string{op.name + "/" + apply.AnnotationOwnerID: "someone-else"},
	}}); err != nil {
		t.Fatal(err)
	}
	s := newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKeyFromObject(s)
	waitsForOwner := func(s *shop.Shop) bool {
		c := s.Status.ReadyCondition()
		return c != nil && c.ObservedGeneration == s.Generation &&
			strings.Contains(c.Message, "someone-else") && !strings.Contains(c.Message, "fault injected")
	}
	s = waitShop(t, cp.Client, key, time.Minute, waitsForOwner)
	settings := &corev1.ConfigMap{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "front-settings"}, settings); err != nil {
		t.Fatalf("the settings beside the waiting object: %v", err)
	}

	inj.SetEnabled(true)
	s.Spec.Message = "goodbye"
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	// Well within apply.OwnershipRetryDelay.
	const soon = 30 * time.Second
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: "front-settings"}, settings)
		return settings.Data["message"], err == nil && settings.Data["message"] == "goodbye", err
	}, soon); err != nil {
		t.Fatalf("the settings did not take the new message: %v (faults injected: %v)", err, inj.Counts())
	}
	if got := inj.Total(); got != 2 {
		t.Fatalf("%d faults injected, want the two forced 500s", got)
	}
	s = waitShop(t, cp.Client, key, soon, waitsForOwner)
	if s.Status.State == componentv1alpha1.StateReady {
		t.Errorf("state Ready while an object waits for its owner")
	}
}

// A shop that waits for someone else's object keeps saying so while
// transient errors come and go: a pass that meets only a server error
// leaves the reported wait as it is, instead of replacing it with an error
// the next pass is unlikely to meet.
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
	op := startOperator(t, cp, ns, setup{config: func(c *rest.Config) { c.Wrap(inj.WrapTransport) }})
	if err := cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: "front-routes",
		Annotations: map[string]string{op.name + "/" + apply.AnnotationOwnerID: "someone-else"},
	}}); err != nil {
		t.Fatal(err)
	}
	s := newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKeyFromObject(s)
	waitsForOwner := func(s *shop.Shop) bool {
		c := s.Status.ReadyCondition()
		return c != nil && c.ObservedGeneration == s.Generation && c.Reason == componentv1alpha1.ReasonRetrying &&
			strings.Contains(c.Message, "someone-else") && !strings.Contains(c.Message, "fault injected")
	}
	waitShop(t, cp.Client, key, time.Minute, waitsForOwner)

	inj.SetEnabled(true)
	if err := op.r.Trigger(t.Context(), ns, "front"); err != nil {
		t.Fatal(err)
	}
	// Two passes met the fault: the first one's status write, if any, is
	// done before the second starts (passes of one shop never overlap).
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		return inj.Total(), inj.Total() >= 2, nil
	}, time.Minute); err != nil {
		t.Fatalf("the passes did not meet the fault: %v", err)
	}
	got := &shop.Shop{}
	if err := cp.Client.Get(t.Context(), key, got); err != nil {
		t.Fatal(err)
	}
	if !waitsForOwner(got) {
		t.Errorf("the shop no longer names what it waits for: %+v", got.Status.ReadyCondition())
	}
	inj.SetEnabled(false)
	waitShop(t, cp.Client, key, time.Minute, waitsForOwner)
}
