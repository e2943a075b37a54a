package apply_test

import (
	"encoding/json"
	"fmt"

	"github.com/opkit-dev/opkit/api/inventory"
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

// A pass returns what it did per object; the caller decides which events
// and conditions to make of it.
func ExampleResult() {
	res := apply.Result{Changes: []apply.Change{
		{Object: inventory.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, Action: apply.ActionUpdated},
		{Object: inventory.Ref{Group: "apps", Version: "v1", Kind: "StatefulSet", Namespace: "shop", Name: "db"},
			Action: apply.ActionUnchanged, IgnoredFields: []string{"spec.volumeClaimTemplates"}},
		{Object: inventory.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "old"}, Action: apply.ActionDeleted},
	}}
	for _, c := range res.Changes {
		if len(c.IgnoredFields) > 0 {
			fmt.Printf("%s: %s: %v\n", apply.ReasonImmutableFieldIgnored, c.Object, c.IgnoredFields)
		}
	}
	fmt.Println(res.Count(apply.ActionUpdated), "updated,", res.Count(apply.ActionDeleted), "deleted")
	// Output:
	// ImmutableFieldIgnored: StatefulSet.apps shop/db: [spec.volumeClaimTemplates]
	// 1 updated, 1 deleted
}
