package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
)

// A render that asks for a value the API server does not let change (a
// StatefulSet's claim size) is not Ready: the component says Error with
// reason ImmutableFieldIgnored, naming the value, what it is and what was
// asked, and deletes nothing; it is Ready again when the value is reverted
// or the StatefulSet recreated.
func TestImmutableFieldKeepsTheComponentFromReady(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, setup{
		opts:      component.Options{Kinds: append(shopKinds, appsv1.SchemeGroupVersion.WithKind("StatefulSet")), RequeueInterval: time.Hour},
		generator: storeGenerator(),
	})
	key := client.ObjectKey{Namespace: ns, Name: "store"}
	newShop(t, cp.Client, ns, "store", shop.ShopSpec{Message: "1Gi"})
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
	sts := &appsv1.StatefulSet{}
	get(t, cp.Client, ns, "store-db", sts)
	uid := sts.UID

	setMessage(t, cp.Client, key, "2Gi")
	got := waitState(t, cp.Client, key, componentv1alpha1.StateError, componentv1alpha1.ReasonImmutableFieldIgnored, time.Minute)
	msg := got.Status.ReadyCondition().Message
	for _, part := range []string{"StatefulSet store-db", "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage is 1Gi", "the render asks for 2Gi", "--cascade=orphan"} {
		if !strings.Contains(msg, part) {
			t.Errorf("the Ready condition's message %q does not say %q", msg, part)
		}
	}
	waitEvent(t, cp.Client, ns, "store", component.ReasonImmutableFieldIgnored, "is 1Gi", "asks for 2Gi")
	get(t, cp.Client, ns, "store-db", sts)
	if sts.UID != uid || claimSize(sts) != "1Gi" {
		t.Fatalf("the StatefulSet was replaced or changed: uid %s (was %s), claim size %s", sts.UID, uid, claimSize(sts))
	}

	setMessage(t, cp.Client, key, "1Gi")
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)

	setMessage(t, cp.Client, key, "2Gi")
	waitState(t, cp.Client, key, componentv1alpha1.StateError, componentv1alpha1.ReasonImmutableFieldIgnored, time.Minute)
	if err := cp.Client.Delete(t.Context(), sts, client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, time.Minute)
	get(t, cp.Client, ns, "store-db", sts)
	if claimSize(sts) != "2Gi" {
		t.Errorf("the recreated StatefulSet claims %s, want 2Gi", claimSize(sts))
	}
}

// storeGenerator renders a StatefulSet of no replicas whose claim template
// asks for the storage the shop's message names.
func storeGenerator() generators.Generator {
	return generators.GeneratorFunc(func(_ context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
		size, _ := parameters["message"].(string)
		q, err := resource.ParseQuantity(size)
		if err != nil {
			return nil, err
		}
		labels := map[string]string{"app": name + "-db"}
		return []client.Object{&appsv1.StatefulSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name + "-db"},
			Spec: appsv1.StatefulSetSpec{
				Replicas: new(int32),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "registry.example/db:1"}}},
				},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
					ObjectMeta: metav1.ObjectMeta{Name: "data"},
					Spec: corev1.PersistentVolumeClaimSpec{
						AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
						Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: q}},
					},
				}},
			},
		}}, nil
	})
}

// setMessage sets the shop's message, retrying conflicts.
func setMessage(t *testing.T, c client.Client, key client.ObjectKey, message string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		s := &shop.Shop{}
		if err := c.Get(ctx, key, s); err != nil {
			return false, false, err
		}
		s.Spec.Message = message
		err := c.Update(ctx, s)
		return err == nil, err == nil, client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatalf("setting the message of %s: %v", key, err)
	}
}

// claimSize is the storage the StatefulSet's first claim template asks for.
func claimSize(sts *appsv1.StatefulSet) string {
	if len(sts.Spec.VolumeClaimTemplates) == 0 {
		return "none"
	}
	q := sts.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests[corev1.ResourceStorage]
	return q.String()
}
