package share

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

// Inventory replaces inv's items by a copy of their length whose groups,
// versions, kinds and namespaces are the shared copies. The names,
// digests and versions, distinct per item, stay as they are.
func Inventory(inv *inventory.Inventory) {
	if len(inv.Items) == 0 {
		return
	}
	items := make([]inventory.Item, len(inv.Items))
	copy(items, inv.Items)
	for i := range items {
		it := &items[i]
		it.Group, it.Version, it.Kind, it.Namespace = apply.Shared(it.Group), apply.Shared(it.Version), apply.Shared(it.Kind), apply.Shared(it.Namespace)
	}
	inv.Items = items
}

// Conditions replaces the types, reasons and messages of conds by their
// shared copies, in place.
func Conditions(conds []metav1.Condition) {
	for i := range conds {
		c := &conds[i]
		c.Type, c.Reason, c.Message = apply.Shared(c.Type), apply.Shared(c.Reason), apply.Shared(c.Message)
	}
}
