package apply_test

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/apply"
)

// The digest does not depend on how an object was built: key order, JSON
// round trips and server-filled metadata do not change it.
func ExampleDigest() {
	a := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings"},
		"data":     map[string]any{"a": "1", "b": "2"}}
	var b map[string]any
	_ = json.Unmarshal([]byte(`{"data":{"b":"2","a":"1"},"kind":"ConfigMap","apiVersion":"v1",
		"metadata":{"name":"settings","resourceVersion":"17","creationTimestamp":null}}`), &b)
	da, _ := apply.Digest(a, "")
	db, _ := apply.Digest(b, "")
	fmt.Println(da == db)
	// Output: true
}

// The inventory is plain data: persist it as JSON, for instance in the
// status of a custom resource, and hand it back on the next pass.
func ExampleInventory() {
	inv := apply.Inventory{{
		TypeInfo: apply.TypeInfo{Version: "v1", Kind: "ConfigMap"},
		NameInfo: apply.NameInfo{Namespace: "shop", Name: "settings"},
		Digest:   "3f2a",
		Phase:    apply.PhaseReady,
	}}
	b, _ := json.Marshal(inv)
	var restored apply.Inventory
	_ = json.Unmarshal(b, &restored)
	fmt.Println(restored.Find(schema.GroupKind{Kind: "ConfigMap"}, "shop", "settings"))
	fmt.Println(restored.Ready())
	// Output:
	// ConfigMap shop/settings
	// true
}
