package servertest_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// Objects that do not become ready within the shop's timeout put it in
// state Error with reason Timeout, a Warning event says so, and a fixed
// spec starts a new cycle that reaches Ready.
func TestTimeoutIsReported(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1, Unschedulable: true,
		TimeoutSpec: componentv1alpha1.TimeoutSpec{Timeout: &metav1.Duration{Duration: 3 * time.Second}}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}

	s := waitState(t, cp.Client, key, componentv1alpha1.StateError, componentv1alpha1.ReasonTimeout, time.Minute)
	msg := s.Status.ReadyCondition().Message
	if !strings.Contains(msg, "within the timeout of 3s") || !strings.Contains(msg, "Deployment.apps "+ns+"/front-web") {
		t.Errorf("timeout message %q does not name the timeout and the waiting Deployment", msg)
	}
	if s.Status.ProcessingSince == nil {
		t.Errorf("processingSince cleared on a timeout")
	}
	e := waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonTimeout, "front-web")
	if e.Type != corev1.EventTypeWarning {
		t.Errorf("timeout event of type %s, want Warning", e.Type)
	}

	s.Spec.Unschedulable = false
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	ready := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	if ready.Status.Revision != 2 {
		t.Errorf("revision %d after the fix, want 2", ready.Status.Revision)
	}
	// The fix superseded a cycle that had not finished.
	waitEvent(t, cp.Client, ns, "front", componentv1alpha1.ReasonRestarting)
}

// A changed spec is a new revision: the chart renders an upgrade (its
// post-upgrade hook runs, its post-install hook does not run again).
func TestUpgradeToRevisionTwo(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	if get(t, cp.Client, ns, "front-upgraded", &corev1.ConfigMap{}) {
		t.Fatalf("the post-upgrade hook ran on install")
	}

	s.Spec.Message = "summer sale"
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	s = waitShop(t, cp.Client, key, 2*time.Minute, func(s *shop.Shop) bool {
		return s.Status.Revision == 2 && s.Status.State == componentv1alpha1.StateReady && s.Status.AppliedGeneration == s.Generation
	})
	want := map[string]map[string]string{
		"front-settings":  {"message": "summer sale", "revision": "2", "upgrade": "true", "color": "none"},
		"front-routes":    {"index": "summer sale"},
		"front-installed": {"revision": "1"},
		"front-upgraded":  {"revision": "2"},
	}
	for name, data := range want {
		cm := &corev1.ConfigMap{}
		if !get(t, cp.Client, ns, name, cm) {
			t.Errorf("ConfigMap %s missing at revision 2", name)
			continue
		}
		for k, v := range data {
			if cm.Data[k] != v {
				t.Errorf("ConfigMap %s: %s = %q, want %q", name, k, cm.Data[k], v)
			}
		}
	}
	if s.Status.LastProcessingDigest != s.Status.ProcessingDigest {
		t.Errorf("lastProcessingDigest %s, processingDigest %s", s.Status.LastProcessingDigest, s.Status.ProcessingDigest)
	}
}

// A suspended shop keeps its objects as they are: spec changes are
// observed but not applied, until the suspension ends.
func TestSuspendedShopAppliesNothing(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)

	s.Spec.Suspend = true
	s.Spec.Message = "not yet"
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	s = waitState(t, cp.Client, key, componentv1alpha1.StatePending, componentv1alpha1.ReasonSuspended, time.Minute)
	settings := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-settings", settings)
	if settings.Data["message"] != "welcome" || s.Status.Revision != 1 {
		t.Errorf("suspended shop applied its change: message %q, revision %d", settings.Data["message"], s.Status.Revision)
	}

	s.Spec.Suspend = false
	if err := cp.Client.Update(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	s = waitShop(t, cp.Client, key, 2*time.Minute, func(s *shop.Shop) bool {
		return s.Status.State == componentv1alpha1.StateReady && s.Status.AppliedGeneration == s.Generation
	})
	get(t, cp.Client, ns, "front-settings", settings)
	if settings.Data["message"] != "not yet" || s.Status.Revision != 2 {
		t.Errorf("resumed shop: message %q, revision %d; want the change applied as revision 2", settings.Data["message"], s.Status.Revision)
	}
}
