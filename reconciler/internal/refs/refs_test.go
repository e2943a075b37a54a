package refs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
)

func TestCheckNamespaces(t *testing.T) {
	errs := refs.CheckNamespaces("x.Namespaces", []string{"shop", "Shop_Front", "shop"})
	var got []string
	for _, err := range errs {
		if !errors.Is(err, failure.ErrInvalid) || failure.AuthorOf(err) != failure.AuthorOperator {
			t.Errorf("%v: not the operator's invalid input", err)
		}
		got = append(got, strings.SplitN(err.Error(), ":", 2)[0])
	}
	if diff := cmp.Diff([]string{"x.Namespaces[1]", "x.Namespaces[2]"}, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if refs.Namespaces(nil) != nil {
		t.Error("no namespaces must mean every namespace (nil)")
	}
}

// Data reads a referenced object once per version: while the version the
// cache shows does not change, the data comes from memory.
func TestDataIsLoadedOncePerVersion(t *testing.T) {
	ctx := t.Context()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "settings"},
		Data: map[string]string{"a": "1"}, BinaryData: map[string][]byte{"b": {2}}}
	reads := 0
	reader := fake.NewClientBuilder().WithObjects(cm).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if _, ok := obj.(*corev1.ConfigMap); ok {
				reads++
			}
			return c.Get(ctx, key, obj, opts...)
		},
	}).Build()
	versions := reader // the metadata reads stand for the cache of versions
	d := refs.NewData(versions, reader)
	key := refs.Key{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}
	for range 3 {
		data, exists, err := d.Load(ctx, key)
		if err != nil || !exists {
			t.Fatalf("Load: %v, exists %v", err, exists)
		}
		if diff := cmp.Diff(map[string][]byte{"a": []byte("1"), "b": {2}}, data); diff != "" {
			t.Fatalf("data (-want +got):\n%s", diff)
		}
	}
	if reads != 1 {
		t.Errorf("%d reads of an unchanged ConfigMap, want 1", reads)
	}
	cm.Data["a"] = "2"
	if err := reader.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if data, _, _ := d.Load(ctx, key); string(data["a"]) != "2" || reads != 2 {
		t.Errorf("after a change: data %q after %d reads, want the new data after 2", data["a"], reads)
	}
	if exists, err := refs.Exists(ctx, reader, refs.Key{Kind: "Secret", Namespace: "shop", Name: "none"}); err != nil || exists {
		t.Errorf("Exists of a missing Secret: %v, %v", exists, err)
	}
	if _, _, err := d.Load(ctx, refs.Key{Kind: "Pod", Namespace: "shop", Name: "x"}); !errors.Is(err, failure.ErrInvalid) {
		t.Errorf("a reference to a Pod: %v, want invalid input", err)
	}
}
