package apply_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/apply"
)

// DiffFields names the fields a write changes, the way a plan lists them:
// the server's bookkeeping left out, named list elements by name.
func ExampleDiffFields() {
	live := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": map[string]any{"name": "db", "resourceVersion": "41", "labels": map[string]any{"app.kubernetes.io/name": "db"}},
		"spec": map[string]any{"replicas": int64(3), "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "main", "image": "example.com/db:1"}},
		}}},
	}}
	desired := live.DeepCopy()
	desired.SetResourceVersion("42")
	desired.SetLabels(map[string]string{"app.kubernetes.io/name": "db", "tier": "data"})
	_ = unstructured.SetNestedField(desired.Object, int64(5), "spec", "replicas")
	_ = unstructured.SetNestedSlice(desired.Object, []any{map[string]any{"name": "main", "image": "example.com/db:2"}}, "spec", "template", "spec", "containers")
	for _, f := range apply.DiffFields(live, desired) {
		fmt.Println(f.Change, f.Path)
	}
	// Output:
	// added metadata.labels.tier
	// changed spec.replicas
	// changed spec.template.spec.containers[name=main].image
}
