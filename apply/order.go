package apply

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/api/inventory"
)

// Kind priorities within one wave, lowest applied first.
const (
	prioNamespace = iota
	prioDefinitions
	prioConfiguration
	prioWorkloads
	prioAPIService
	prioInstances
)

// kindPriority is the table behind applyPriority.
var kindPriority = map[string]int{
	"Namespace": prioNamespace,

	"CustomResourceDefinition.apiextensions.k8s.io": prioDefinitions,
	"ClusterRole.rbac.authorization.k8s.io":         prioDefinitions,
	"Role.rbac.authorization.k8s.io":                prioDefinitions,
	"PriorityClass.scheduling.k8s.io":               prioDefinitions,
	"StorageClass.storage.k8s.io":                   prioDefinitions,
	"IngressClass.networking.k8s.io":                prioDefinitions,
	"RuntimeClass.node.k8s.io":                      prioDefinitions,

	"ConfigMap":      prioConfiguration,
	"Secret":         prioConfiguration,
	"ServiceAccount": prioConfiguration,
	"LimitRange":     prioConfiguration,
	"ResourceQuota":  prioConfiguration,
	"Service":        prioConfiguration,
	"ClusterRoleBinding.rbac.authorization.k8s.io": prioConfiguration,
	"RoleBinding.rbac.authorization.k8s.io":        prioConfiguration,

	// Served by workloads of the set: after them, in their own sub-stage.
	"APIService.apiregistration.k8s.io":                           prioAPIService,
	"ValidatingWebhookConfiguration.admissionregistration.k8s.io": prioAPIService,
	"MutatingWebhookConfiguration.admissionregistration.k8s.io":   prioAPIService,
}

// applyPriority orders the kinds of one apply wave: namespaces; then
// definitions, roles and classes; then configuration, services and
// bindings; then everything else (the workloads); then APIServices and
// webhook configurations, whose backends must run first; then instances of
// managed types.
func applyPriority(gk schema.GroupKind, managedInstance bool) int {
	if managedInstance {
		return prioInstances
	}
	if p, ok := kindPriority[gk.String()]; ok {
		return p
	}
	return prioWorkloads
}

// deletePriority orders the kinds of one delete wave: instances of managed
// types first, right after them their CRDs and APIServices, then webhook
// configurations, workloads, the configuration and services they used,
// definitions and classes, and namespaces last.
func deletePriority(gk schema.GroupKind, managedInstance bool) int {
	switch {
	case managedInstance:
		return 0
	case gk == gkCRD || gk == gkAPIService:
		return 1
	}
	return prioInstances + 1 - applyPriority(gk, false)
}

// sortForApply sorts by apply wave, kind priority, then key for
// determinism.
func sortForApply(ds []*desired) {
	slices.SortStableFunc(ds, func(a, b *desired) int {
		return cmp.Or(
			cmp.Compare(a.settings.applyOrder, b.settings.applyOrder),
			cmp.Compare(applyPriority(a.gvk.GroupKind(), a.managedInstance || a.apiServiceInstance), applyPriority(b.gvk.GroupKind(), b.managedInstance || b.apiServiceInstance)),
			a.key.Compare(b.key),
		)
	})
}

// deleteStep is an item scheduled for deletion with its position.
type deleteStep struct {
	key      inventory.Key
	order    int
	priority int
}

func sortForDelete(steps []deleteStep) {
	slices.SortStableFunc(steps, func(a, b deleteStep) int {
		return cmp.Or(
			cmp.Compare(a.order, b.order),
			cmp.Compare(a.priority, b.priority),
			a.key.Compare(b.key),
		)
	})
}
