package component

import (
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/opkit-dev/opkit/reconciler/internal/share"
)

// shareStatus returns a cache transform that runs next (when not nil) and
// then, for a component, shares what its status repeats: the conditions'
// types, reasons and messages and the inventory items' groups, versions,
// kinds and namespaces; the inventory is trimmed to its length
// (package share). A component's inventory is most of what its cached
// copy holds: one item per object it manages. The content does not
// change; other objects are left as they are.
func shareStatus(next toolscache.TransformFunc) toolscache.TransformFunc {
	return share.After(next, func(in any) {
		if c, ok := in.(Component); ok {
			if st := c.GetStatus(); st != nil {
				share.Conditions(st.Conditions)
				share.Inventory(&st.Inventory)
			}
		}
	})
}
