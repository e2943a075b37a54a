package apply_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/opkit-dev/opkit/apply"
)

// statefulSet is a StatefulSet of two replicas at generation 1, ready
// replicas of them ready, as the cache holds it (no kind set).
func statefulSet(ready int32) *appsv1.StatefulSet {
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns", Generation: 1, Labels: map[string]string{"a": "b"}},
		Spec:       appsv1.StatefulSetSpec{Replicas: ptr(int32(2))},
		Status: appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: 2, ReadyReplicas: ready, AvailableReplicas: ready,
			CurrentReplicas: 2, UpdatedReplicas: 2, CurrentRevision: "s-1", UpdateRevision: "s-1"},
	}
}

func ptr[T any](v T) *T { return &v }

func TestIgnoreStatusProgress(t *testing.T) {
	sts := appsv1.SchemeGroupVersion.WithKind("StatefulSet")
	pdb := policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget")
	svc := corev1.SchemeGroupVersion.WithKind("Service")
	cm := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	edit := func(o *appsv1.StatefulSet, f func(*appsv1.StatefulSet)) *appsv1.StatefulSet { f(o); return o }
	newPDB := func(healthy int32) *policyv1.PodDisruptionBudget {
		return &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Generation: 1},
			Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: ptr(intstr.FromInt32(1))},
			Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: healthy, DesiredHealthy: 1, ExpectedPods: 2},
		}
	}
	tests := []struct {
		name     string
		gvk      schema.GroupVersionKind
		old, new client.Object
		want     bool
	}{
		{"a StatefulSet's pod starts, the set still rolls out", sts, statefulSet(0), statefulSet(1), false},
		{"the StatefulSet becomes ready", sts, statefulSet(1), statefulSet(2), true},
		{"a ready StatefulSet loses a pod", sts, statefulSet(2), statefulSet(1), true},
		{"the StatefulSet's spec changes", sts, statefulSet(1), edit(statefulSet(1), func(s *appsv1.StatefulSet) { s.Generation = 2 }), true},
		{"the StatefulSet's labels change", sts, statefulSet(1), edit(statefulSet(1), func(s *appsv1.StatefulSet) { s.Labels = nil }), true},
		{"the StatefulSet's annotations change", sts, statefulSet(1), edit(statefulSet(1), func(s *appsv1.StatefulSet) { s.Annotations = map[string]string{"x": "y"} }), true},
		{"the StatefulSet loses its owner", sts, edit(statefulSet(1), func(s *appsv1.StatefulSet) {
			s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "X", Name: "x", UID: "u"}}
		}), statefulSet(1), true},
		{"the StatefulSet is being deleted", sts, statefulSet(1), edit(statefulSet(1), func(s *appsv1.StatefulSet) { s.DeletionTimestamp = &metav1.Time{} }), true},
		{"a PodDisruptionBudget counts a healthy pod", pdb, newPDB(1), newPDB(2), false},
		{"a Service's status changes", svc, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "v", Generation: 1}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "v", Generation: 1}, Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "1.2.3.4"}}}}}, true},
		{"a ConfigMap's metadata is all its informer holds", cm, &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "c", ResourceVersion: "1"}},
			&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "c", ResourceVersion: "2"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := apply.IgnoreStatusProgress(tt.gvk).Update(event.UpdateEvent{ObjectOld: tt.old, ObjectNew: tt.new})
			if got != tt.want {
				t.Errorf("update passes = %t, want %t", got, tt.want)
			}
		})
	}

	t.Run("creations, deletions and generic events pass", func(t *testing.T) {
		p := apply.IgnoreStatusProgress(sts)
		if !p.Create(event.CreateEvent{Object: statefulSet(0)}) || !p.Delete(event.DeleteEvent{Object: statefulSet(0)}) ||
			!p.Generic(event.GenericEvent{Object: statefulSet(0)}) {
			t.Error("a creation, deletion or generic event was dropped")
		}
	})

	t.Run("unstructured objects are read, not changed", func(t *testing.T) {
		toU := func(s *appsv1.StatefulSet) *unstructured.Unstructured {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(s)
			if err != nil {
				t.Fatal(err)
			}
			u := &unstructured.Unstructured{Object: m}
			u.SetGroupVersionKind(sts) // as an informer of unstructured objects holds them
			return u
		}
		old, cur := toU(statefulSet(0)), toU(statefulSet(1))
		before := cur.DeepCopy()
		if apply.IgnoreStatusProgress(sts).Update(event.UpdateEvent{ObjectOld: old, ObjectNew: cur}) {
			t.Error("an unstructured StatefulSet's progress passed")
		}
		if diff := cmp.Diff(before.Object, cur.Object); diff != "" {
			t.Errorf("the predicate changed the object (-before +after):\n%s", diff)
		}
	})
}
