package apply

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// applyPriority orders the kinds of one apply wave: namespaces first, then
// definitions and roles, then configuration and bindings, then everything
// else, APIServices last (their backends must run first). Instances of
// managed types come after all of these.
func applyPriority(gk schema.GroupKind, managedInstance bool) int {
	if managedInstance {
		return 5
	}
	switch gk.String() {
	case "Namespace":
		return 0
	case "CustomResourceDefinition.apiextensions.k8s.io", "ClusterRole.rbac.authorization.k8s.io", "Role.rbac.authorization.k8s.io":
		return 1
	case "ConfigMap", "Secret", "ServiceAccount", "LimitRange", "ResourceQuota",
		"ClusterRoleBinding.rbac.authorization.k8s.io", "RoleBinding.rbac.authorization.k8s.io",
		"StorageClass.storage.k8s.io", "PriorityClass.scheduling.k8s.io":
		return 2
	case "APIService.apiregistration.k8s.io":
		return 4
	}
	return 3
}

// deletePriority orders the kinds of one delete wave: instances of managed
// types first, then the reverse of the apply priority.
func deletePriority(gk schema.GroupKind, managedInstance bool) int {
	if managedInstance {
		return 0
	}
	return 5 - applyPriority(gk, false) + 1
}

// sortForApply sorts by apply wave, kind priority, then name for
// determinism.
func sortForApply(ds []*desired) {
	slices.SortStableFunc(ds, func(a, b *desired) int {
		return cmp.Or(
			cmp.Compare(a.settings.applyOrder, b.settings.applyOrder),
			cmp.Compare(applyPriority(a.gvk.GroupKind(), a.managedInstance), applyPriority(b.gvk.GroupKind(), b.managedInstance)),
			cmp.Compare(a.key, b.key),
		)
	})
}

// deleteStep is an item scheduled for deletion with its position.
type deleteStep struct {
	item     *InventoryItem
	order    int
	priority int
}

func sortForDelete(steps []deleteStep) {
	slices.SortStableFunc(steps, func(a, b deleteStep) int {
		return cmp.Or(
			cmp.Compare(a.order, b.order),
			cmp.Compare(a.priority, b.priority),
			cmp.Compare(a.item.key(), b.item.key()),
		)
	})
}
