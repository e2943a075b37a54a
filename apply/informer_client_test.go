package apply_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/apply"
)

// The engine's and the cleaner's reads reach the informer type the manager
// keeps for each kind, and return what the caller asked for.
func TestInformerClientReadsOneInformerPerKind(t *testing.T) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	labels := map[string]string{"app": "demo"}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo", Labels: labels}, Data: map[string]string{"k": "v"}}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo", Labels: labels}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo-0", Labels: labels}}
	var asked []string
	record := func(obj runtime.Object) {
		kind := fmt.Sprintf("%T", obj)
		if m, ok := obj.(interface {
			GroupVersionKind() schema.GroupVersionKind
		}); ok && strings.Contains(kind, "PartialObjectMetadata") {
			kind += " " + m.GroupVersionKind().Kind
		}
		asked = append(asked, kind)
	}
	base := fake.NewClientBuilder().WithScheme(scheme).WithObjects(cm, sts, pod).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			record(obj)
			return c.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			record(list)
			return c.List(ctx, list, opts...)
		},
	}).Build()
	ic := apply.InformerClient(base, []schema.GroupVersionKind{
		corev1.SchemeGroupVersion.WithKind("ConfigMap"), appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
	})
	ctx := context.Background()
	key := client.ObjectKey{Namespace: "ns", Name: "demo"}
	metaOf := func(kind schema.GroupVersionKind) *metav1.PartialObjectMetadata {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(kind)
		return m
	}
	metaListOf := func(kind schema.GroupVersionKind) *metav1.PartialObjectMetadataList {
		m := &metav1.PartialObjectMetadataList{}
		m.SetGroupVersionKind(kind)
		return m
	}
	stsKind := appsv1.SchemeGroupVersion.WithKind("StatefulSet")

	tests := []struct {
		name      string
		read      func() (client.Object, error)
		wantAsked []string
		wantName  string
		wantData  bool
	}{
		{"typed ConfigMap read as metadata", func() (client.Object, error) {
			got := &corev1.ConfigMap{Data: map[string]string{"stale": "x"}}
			return got, ic.Get(ctx, key, got)
		}, []string{"*v1.PartialObjectMetadata ConfigMap"}, "demo", false},
		{"ConfigMap list read as metadata", func() (client.Object, error) {
			list := &corev1.ConfigMapList{}
			err := ic.List(ctx, list, client.InNamespace("ns"), client.MatchingLabels(labels))
			if err != nil || len(list.Items) != 1 {
				return nil, fmt.Errorf("listed %d items: %v", len(list.Items), err) //nolint:errorlint // err may be nil: the count alone can be wrong
			}
			return &list.Items[0], nil
		}, []string{"*v1.PartialObjectMetadataList ConfigMapList"}, "demo", false},
		{"StatefulSet metadata list read typed", func() (client.Object, error) {
			list := metaListOf(appsv1.SchemeGroupVersion.WithKind("StatefulSetList"))
			err := ic.List(ctx, list, client.MatchingLabels(labels))
			if err != nil || len(list.Items) != 1 || list.Items[0].Kind != "StatefulSet" {
				return nil, fmt.Errorf("listed %+v: %v", list.Items, err) //nolint:errorlint // err may be nil: the items alone can be wrong
			}
			return &list.Items[0], nil
		}, []string{"*v1.StatefulSetList"}, "demo", false},
		{"StatefulSet metadata read typed", func() (client.Object, error) {
			got := metaOf(stsKind)
			return got, ic.Get(ctx, key, got)
		}, []string{"*v1.StatefulSet"}, "demo", false},
		{"typed StatefulSet read as asked", func() (client.Object, error) {
			got := &appsv1.StatefulSet{}
			return got, ic.Get(ctx, key, got)
		}, []string{"*v1.StatefulSet"}, "demo", false},
		{"unmanaged kind read as asked", func() (client.Object, error) {
			got := metaOf(corev1.SchemeGroupVersion.WithKind("Pod"))
			return got, ic.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "demo-0"}, got)
		}, []string{"*v1.PartialObjectMetadata Pod"}, "demo-0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			got, err := tt.read()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantAsked, asked); diff != "" {
				t.Errorf("reads sent to the manager's client (-want +got):\n%s", diff)
			}
			if got.GetName() != tt.wantName || got.GetLabels()["app"] != "demo" {
				t.Errorf("read %s with labels %v, want %s with the stored labels", got.GetName(), got.GetLabels(), tt.wantName)
			}
			if c, ok := got.(*corev1.ConfigMap); ok && (len(c.Data) > 0) != tt.wantData {
				t.Errorf("ConfigMap data %v: a metadata read carries none", c.Data)
			}
		})
	}
}
