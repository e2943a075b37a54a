package servertest_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// Normal events on dependent objects are opt-in: a shop annotated
// "<reconciler name>/object-events: true" gets a Created event on its
// ConfigMap, a shop without the annotation none, while its own state
// events still go out; an annotation that is not a boolean is state Error
// naming it.
func TestObjectEventsAreOptIn(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	op := startOperator(t, cp, ns, setup{generator: noteGenerator})
	annotated := func(name, value string) *shop.Shop {
		s := &shop.Shop{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			Annotations: map[string]string{op.name + "/" + component.ObjectEventsAnnotation: value}},
			Spec: shop.ShopSpec{Message: "hello " + name}}
		if err := cp.Client.Create(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	annotated("loud", "true")
	annotated("garbled", "yes")
	newShop(t, cp.Client, ns, "quiet", shop.ShopSpec{Message: "hello quiet"})

	for _, name := range []string{"loud", "quiet"} {
		waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: name}, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	}
	waitEvent(t, cp.Client, ns, "loud-note", "Created", "created ConfigMap")
	// The events of a pass are written in the order they were recorded:
	// once the quiet shop's Ready event is there, an event on its
	// ConfigMap, recorded before, would be too.
	waitEvent(t, cp.Client, ns, "quiet", componentv1alpha1.ReasonReady)
	if evs := events(t, cp.Client, ns, "quiet-note"); len(evs) > 0 {
		t.Errorf("the quiet shop's ConfigMap has events: %+v", evs)
	}

	garbled := waitState(t, cp.Client, client.ObjectKey{Namespace: ns, Name: "garbled"}, componentv1alpha1.StateError, componentv1alpha1.ReasonError, time.Minute)
	cond := garbled.Status.ReadyCondition()
	want := "metadata.annotations[" + op.name + "/object-events]"
	if cond == nil || !containsAll(cond.Message, []string{want, `"yes"`}) {
		t.Errorf("the garbled shop's Ready condition %+v does not name %s", cond, want)
	}
	if get(t, cp.Client, ns, "garbled-note", &corev1.ConfigMap{}) {
		t.Errorf("the garbled shop's ConfigMap was applied")
	}
}
