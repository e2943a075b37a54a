package apply

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The kind priorities of the seed: sorting a shuffled list of kinds by
// apply priority and by delete priority gives these orders.
func TestKindPriorities(t *testing.T) {
	kinds := []struct {
		gk       schema.GroupKind
		instance bool
	}{
		{gk: schema.GroupKind{Group: "apps", Kind: "StatefulSet"}},
		{gk: schema.GroupKind{Group: "example.com", Kind: "Widget"}, instance: true},
		{gk: gkAPIService},
		{gk: schema.GroupKind{Kind: "ConfigMap"}},
		{gk: gkNamespace},
		{gk: schema.GroupKind{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}},
		{gk: gkCRD},
		{gk: schema.GroupKind{Group: "storage.k8s.io", Kind: "StorageClass"}},
		{gk: schema.GroupKind{Kind: "Service"}},
	}
	names := func(prio func(schema.GroupKind, bool) int) []string {
		s := slices.Clone(kinds)
		slices.SortStableFunc(s, func(a, b struct {
			gk       schema.GroupKind
			instance bool
		}) int {
			return prio(a.gk, a.instance) - prio(b.gk, b.instance)
		})
		var out []string
		for _, k := range s {
			out = append(out, k.gk.Kind)
		}
		return out
	}
	wantApply := []string{"Namespace", "CustomResourceDefinition", "StorageClass", "ConfigMap", "Service", "StatefulSet",
		"APIService", "ValidatingWebhookConfiguration", "Widget"}
	if diff := cmp.Diff(wantApply, names(applyPriority)); diff != "" {
		t.Errorf("apply order (-want +got):\n%s", diff)
	}
	wantDelete := []string{"Widget", "APIService", "CustomResourceDefinition", "ValidatingWebhookConfiguration", "StatefulSet",
		"ConfigMap", "Service", "StorageClass", "Namespace"}
	if diff := cmp.Diff(wantDelete, names(deletePriority)); diff != "" {
		t.Errorf("delete order (-want +got):\n%s", diff)
	}
}

// forEach calls every index exactly once whatever the limit.
func TestForEachCallsEveryIndexOnce(t *testing.T) {
	for _, limit := range []int{1, 3, 64} {
		got := make([]int, 100)
		forEach(len(got), limit, func(i int) { got[i]++ })
		for i, n := range got {
			if n != 1 {
				t.Fatalf("limit %d: index %d called %d times", limit, i, n)
			}
		}
	}
}
