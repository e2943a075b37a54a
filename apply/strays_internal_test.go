package apply

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/opkit-dev/opkit/api/inventory"
)

// An engine that lives as long as the operator keeps what it remembers of
// an owner only while the owner has objects: once a Delete of the owner is
// done, nothing of it stays, and the owners still there are kept.
func TestDeleteDoneForgetsTheOwner(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	cm := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(cm, meta.RESTScopeNamespace)
	c := fake.NewClientBuilder().WithScheme(scheme).WithRESTMapper(mapper).Build()
	engine, err := New("shop.example.com", c, Options{Kinds: []schema.GroupVersionKind{cm}})
	if err != nil {
		t.Fatal(err)
	}
	invs := map[string]*inventory.Inventory{}
	for _, owner := range []string{"kept", "deleted"} {
		invs[owner] = &inventory.Inventory{}
		objects := []client.Object{&corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: owner}, Data: map[string]string{"k": "v"}}}
		if _, err := engine.Apply(t.Context(), invs[owner], objects, PassOptions{Owner: Owner{ID: owner, DefaultNamespace: "shop"}}); err != nil {
			t.Fatal(err)
		}
	}
	remembered := func() []string {
		engine.prints.mu.Lock()
		defer engine.prints.mu.Unlock()
		var ids []string
		for id := range engine.prints.m {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	if diff := cmp.Diff([]string{"deleted", "kept"}, remembered()); diff != "" {
		t.Fatalf("owners remembered after their first passes (-want +got):\n%s", diff)
	}
	pass := PassOptions{Owner: Owner{ID: "deleted", DefaultNamespace: "shop"}}
	for i := 0; ; i++ {
		res, err := engine.Delete(t.Context(), invs["deleted"], pass)
		if err != nil {
			t.Fatal(err)
		}
		if res.Done {
			break
		}
		if diff := cmp.Diff([]string{"deleted", "kept"}, remembered()); diff != "" {
			t.Fatalf("owners remembered while a delete is under way (-want +got):\n%s", diff)
		}
		if i == 10 {
			t.Fatalf("the delete was not done after %d passes: %+v", i+1, res)
		}
	}
	if diff := cmp.Diff([]string{"kept"}, remembered()); diff != "" {
		t.Errorf("owners remembered after the delete was done (-want +got):\n%s", diff)
	}
}
