package servertest_test

import (
	"context"
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

// A change of a referenced Secret re-renders the shop through the watch
// on Secrets, as a new revision.
func TestReferencedSecretChangeReRenders(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{})
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"}, StringData: map[string]string{"password": "first"}}
	if err := cp.Client.Create(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1,
		Credentials: &componentv1alpha1.SecretKeyReference{Name: "db", Key: "password"}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}
	first := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	if got := password(t, cp.Client, ns); got != "first" {
		t.Fatalf("rendered password %q, want first", got)
	}

	secret.StringData = map[string]string{"password": "second"}
	if err := cp.Client.Update(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	second := waitShop(t, cp.Client, key, 30*time.Second, func(s *shop.Shop) bool {
		return s.Status.Revision == 2 && s.Status.State == componentv1alpha1.StateReady
	})
	if got := password(t, cp.Client, ns); got != "second" {
		t.Errorf("rendered password %q after the Secret changed, want second", got)
	}
	if second.Generation != first.Generation || second.Status.ProcessingDigest == first.Status.ProcessingDigest {
		t.Errorf("generation %d → %d, digest %s → %s: only the digest should change",
			first.Generation, second.Generation, first.Status.ProcessingDigest, second.Status.ProcessingDigest)
	}
}

func password(t *testing.T, c client.Client, ns string) string {
	t.Helper()
	s := &corev1.Secret{}
	if !get(t, c, ns, "front-db", s) {
		return "(no Secret)"
	}
	return string(s.Data["password"])
}

// A missing reference is a wait, not an error: the shop is Pending with a
// message naming the field, and the creation of the Secret moves it on.
// An optional reference renders as empty while missing.
func TestMissingReferenceWaitsForItsObject(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 1,
		Credentials: &componentv1alpha1.SecretKeyReference{Name: "db", Key: "password"},
		Branding:    &componentv1alpha1.ConfigMapReference{Name: "branding"}})
	key := client.ObjectKey{Namespace: ns, Name: "front"}

	s := waitState(t, cp.Client, key, componentv1alpha1.StatePending, componentv1alpha1.ReasonRetrying, time.Minute)
	if msg := s.Status.ReadyCondition().Message; !strings.Contains(msg, "spec.credentials") || !strings.Contains(msg, "Secret "+ns+"/db does not exist") {
		t.Errorf("message %q does not name the field and the Secret", msg)
	}
	if strings.Contains(s.Status.ReadyCondition().Message, "branding") {
		t.Errorf("the optional reference is reported missing: %q", s.Status.ReadyCondition().Message)
	}

	// The Secret exists, but without the key.
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"}, StringData: map[string]string{"user": "shop"}}
	if err := cp.Client.Create(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	waitShop(t, cp.Client, key, 30*time.Second, func(s *shop.Shop) bool {
		return strings.Contains(s.Status.ReadyCondition().Message, `has no key "password"`)
	})
	secret.StringData = map[string]string{"password": "s3cr3t"}
	if err := cp.Client.Update(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	settings := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-settings", settings)
	if settings.Data["color"] != "none" {
		t.Errorf("color %q without the branding ConfigMap, want none", settings.Data["color"])
	}

	// The optional ConfigMap appears: its data is rendered.
	branding := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "branding"}, Data: map[string]string{"color": "teal"}}
	if err := cp.Client.Create(t.Context(), branding); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		get(t, cp.Client, ns, "front-settings", settings)
		return settings.Data["color"], settings.Data["color"] == "teal", nil
	}, 30*time.Second); err != nil {
		t.Errorf("branding not rendered: %v", err)
	}
}
