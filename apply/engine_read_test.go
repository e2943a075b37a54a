package apply_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

// An engine given Options.Kinds reads each managed kind in the one Go type
// InformerObject names, whatever the read is for (a pass's object, the
// search for objects a lost inventory left behind): a manager's cache then
// keeps one informer per kind, not a typed one and a metadata one.
func TestEngineReadsEachKindInOneType(t *testing.T) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	read := map[string][]string{}
	record := func(obj runtime.Object, gvk schema.GroupVersionKind) {
		kind := gvk.Kind
		if l := len(kind); l > 4 && kind[l-4:] == "List" {
			kind = kind[:l-4]
		}
		typ := fmt.Sprintf("%T", obj)
		if !slices.Contains(read[kind], typ) {
			read[kind] = append(read[kind], typ)
		}
	}
	gvkOf := func(c client.WithWatch, obj runtime.Object) schema.GroupVersionKind {
		if m, ok := obj.(interface {
			GroupVersionKind() schema.GroupVersionKind
		}); ok && m.GroupVersionKind().Kind != "" {
			return m.GroupVersionKind()
		}
		gvks, _, _ := c.Scheme().ObjectKinds(obj)
		if len(gvks) == 0 {
			return schema.GroupVersionKind{}
		}
		return gvks[0]
	}
	kinds := []schema.GroupVersionKind{appsv1.SchemeGroupVersion.WithKind("Deployment"), corev1.SchemeGroupVersion.WithKind("ConfigMap")}
	mapper := meta.NewDefaultRESTMapper(nil)
	for _, k := range kinds {
		mapper.Add(k, meta.RESTScopeNamespace)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithRESTMapper(mapper).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			record(obj, gvkOf(c, obj))
			return c.Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			record(list, gvkOf(c, list))
			return c.List(ctx, list, opts...)
		},
	}).Build()
	engine, err := apply.New("shop.example.com", c, apply.Options{Kinds: kinds, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"app": "web"}
	objects := func() []client.Object {
		return []client.Object{
			&corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{Name: "web"}, Data: map[string]string{"k": "v"}},
			&appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
				ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
					Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
						Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}}}}},
		}
	}
	var inv inventory.Inventory
	pass := apply.PassOptions{Owner: apply.Owner{ID: "shop-1", DefaultNamespace: "shop"}}
	for range 2 {
		if _, err := engine.Apply(t.Context(), &inv, objects(), pass); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{
		"ConfigMap":  {"*v1.PartialObjectMetadata"},
		"Deployment": {"*v1.Deployment"},
	}
	for kind, types := range read {
		for i, typ := range types {
			switch typ {
			case "*v1.PartialObjectMetadataList":
				types[i] = "*v1.PartialObjectMetadata"
			case "*v1.DeploymentList":
				types[i] = "*v1.Deployment"
			}
		}
		slices.Sort(types)
		read[kind] = slices.Compact(types)
	}
	if diff := cmp.Diff(want, read); diff != "" {
		t.Errorf("Go types each kind was read in (-want +got):\n%s", diff)
	}
}
