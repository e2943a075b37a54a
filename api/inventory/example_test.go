package inventory_test

import (
	"encoding/json"
	"fmt"

	"github.com/opkit-dev/opkit/api/inventory"
)

// An engine indexes the inventory once per pass and looks items up by key.
func ExampleIndex() {
	var inv inventory.Inventory
	idx := inventory.NewIndex(&inv)
	idx.Add(&inv, inventory.Item{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings", Digest: "3q2-7wAAAAA"})
	idx.Add(&inv, inventory.Item{Group: "apps", Version: "v1", Kind: "StatefulSet", Namespace: "shop", Name: "db", Generation: 2})

	it := idx.Find(&inv, inventory.Key{Group: "apps", Kind: "StatefulSet", Namespace: "shop", Name: "db"})
	fmt.Println(it.Ref(), it.EffectivePhase())

	b, _ := json.Marshal(inv)
	fmt.Println(string(b))
	// Output:
	// StatefulSet.apps shop/db Ready
	// {"items":[{"v":"v1","k":"ConfigMap","ns":"shop","n":"settings","d":"3q2-7wAAAAA"},{"g":"apps","v":"v1","k":"StatefulSet","ns":"shop","n":"db","gn":2}]}
}
