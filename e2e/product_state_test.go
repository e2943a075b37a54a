package e2e_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// productKinds are the kinds the product reconciler writes.
var productKinds = []schema.GroupVersionKind{
	corev1.SchemeGroupVersion.WithKind("ServiceAccount"),
	corev1.SchemeGroupVersion.WithKind("ConfigMap"),
	corev1.SchemeGroupVersion.WithKind("Service"),
	appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
	policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	rbacv1.SchemeGroupVersion.WithKind("Role"),
	rbacv1.SchemeGroupVersion.WithKind("RoleBinding"),
}

var sampleKind = samplev1alpha1.GroupVersion.WithKind("SampleCluster")

// productCapturer captures a product namespace: the cluster resources with
// their conditions and inventories, and every object of the product's
// kinds.
var productCapturer = capturer{kinds: productKinds, owners: sampleKind, status: productStatus, skip: defaultSkip}

// productStatus is a cluster resource's status without what differs from
// run to run: condition times, and the inventories' digests, resource
// versions and generations.
func productStatus(u *unstructured.Unstructured) (any, error) {
	cr := &sampleCluster{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, cr); err != nil {
		return nil, err
	}
	st := cr.Status.ClusterStatus
	conds := []any{}
	for _, c := range st.Conditions {
		conds = append(conds, map[string]any{"type": c.Type, "status": string(c.Status), "reason": c.Reason, "message": c.Message, "observedGeneration": c.ObservedGeneration})
	}
	roles := []any{}
	for _, r := range st.Roles {
		roles = append(roles, map[string]any{"role": r.Role, "objects": items(&r.Objects)})
	}
	groups := []any{}
	for _, g := range st.RoleGroups {
		groups = append(groups, map[string]any{"role": g.Role, "group": g.Group, "objects": items(&g.Objects)})
	}
	return map[string]any{
		"observedGeneration": st.ObservedGeneration,
		"conditions":         conds,
		"objects":            items(&st.Objects),
		"roles":              roles,
		"roleGroups":         groups,
	}, nil
}

// items describes an inventory's items without their digests, resource
// versions, generations and write times, sorted.
func items(inv *inventory.Inventory) []string {
	out := make([]string, 0, len(inv.Items))
	for _, it := range inv.Items {
		out = append(out, fmt.Sprintf("%s phase=%s status=%s orders=%d/%d policies=%s/%s/%s/%s",
			it.Ref(), it.EffectivePhase(), it.EffectiveStatus(), it.ApplyOrder, it.DeleteOrder,
			it.AdoptionPolicy, it.ReconcilePolicy, it.UpdatePolicy, it.DeletePolicy))
	}
	slices.Sort(out)
	return out
}

// scopedItems returns every inventory item of a cluster resource with the
// owner id of its scope (cluster, role, role group).
func scopedItems(cr *sampleCluster) map[inventory.Key]scoped {
	uid := string(cr.UID)
	out := map[inventory.Key]scoped{}
	add := func(owner string, inv *inventory.Inventory) {
		for _, it := range inv.Items {
			out[it.Key()] = scoped{owner: owner, item: it}
		}
	}
	add(uid, &cr.Status.Objects)
	for _, r := range cr.Status.Roles {
		add(uid+"/"+r.Role, &r.Objects)
	}
	for _, g := range cr.Status.RoleGroups {
		add(uid+"/"+g.Role+"/"+g.Group, &g.Objects)
	}
	return out
}

type scoped struct {
	owner string
	item  inventory.Item
}

// inventoryProblems checks what the product's inventories say against the
// live objects of ns (see checkInventories).
func inventoryProblems(ctx context.Context, c client.Reader, ns, reconcilerName string) ([]string, error) {
	var crs samplev1alpha1.SampleClusterList
	if err := c.List(ctx, &crs, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	recorded := map[inventory.Key]scoped{}
	var uids []string
	for i := range crs.Items {
		uids = append(uids, string(crs.Items[i].UID))
		for k, v := range scopedItems(&crs.Items[i]) {
			recorded[k] = v
		}
	}
	ofOurs := func(owner string) bool {
		id, _, _ := strings.Cut(owner, "/")
		return slices.Contains(uids, id)
	}
	return checkInventories(ctx, c, ns, reconcilerName, productKinds, recorded, ofOurs)
}

// checkInventories checks recorded inventory items against the live
// objects of kinds in ns: every object whose owner id (the reconciler's
// annotation) ofOurs accepts is recorded under that owner, with the digest
// it carries; every item recorded ready exists. It returns one line per
// problem, sorted: an object outside every inventory has leaked (nothing
// would ever delete it), an item without its object was lost.
func checkInventories(ctx context.Context, c client.Reader, ns, reconcilerName string, kinds []schema.GroupVersionKind,
	recorded map[inventory.Key]scoped, ofOurs func(owner string) bool) ([]string, error) {
	ownerKey := reconcilerName + "/" + apply.AnnotationOwnerID
	digestKey := reconcilerName + "/" + apply.AnnotationDigest
	var problems []string
	live := map[inventory.Key]bool{}
	for _, gvk := range kinds {
		objs, err := list(ctx, c, ns, gvk)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			key := inventory.KeyOf(gvk.GroupKind(), o.GetNamespace(), o.GetName())
			live[key] = true
			owner := o.GetAnnotations()[ownerKey]
			if !ofOurs(owner) {
				continue // someone else's
			}
			rec, found := recorded[key]
			switch {
			case !found:
				problems = append(problems, fmt.Sprintf("leaked: %s (owner %s) is in no inventory", key, owner))
			case rec.owner != owner:
				problems = append(problems, fmt.Sprintf("misfiled: %s carries owner %s, recorded under %s", key, owner, rec.owner))
			case rec.item.Digest != "" && rec.item.Digest != o.GetAnnotations()[digestKey]:
				problems = append(problems, fmt.Sprintf("stale: %s carries digest %s, recorded %s", key, o.GetAnnotations()[digestKey], rec.item.Digest))
			}
		}
	}
	for k, rec := range recorded {
		if !live[k] && rec.item.EffectivePhase() == inventory.PhaseReady && rec.item.Status == "" {
			problems = append(problems, fmt.Sprintf("lost: %s is recorded ready under %s but does not exist", k, rec.owner))
		}
	}
	slices.SortFunc(problems, func(a, b string) int { return cmp.Compare(a, b) })
	return problems, nil
}

// conditionOf returns the cluster's condition typ, or nil.
func conditionOf(cr *sampleCluster, typ string) *condition {
	for _, c := range cr.Status.Conditions {
		if c.Type == typ {
			return &condition{Status: string(c.Status), Reason: c.Reason, Message: c.Message, ObservedGeneration: c.ObservedGeneration}
		}
	}
	return nil
}

type condition struct {
	Status, Reason, Message string
	ObservedGeneration      int64
}

// settled reports whether a cluster resource is done: its status is for
// its generation, every object applied and ready, nothing degraded or
// progressing.
func settled(cr *sampleCluster) (bool, string) {
	if cr.Status.ObservedGeneration != cr.Generation {
		return false, fmt.Sprintf("%s: status for generation %d of %d", cr.Name, cr.Status.ObservedGeneration, cr.Generation)
	}
	want := map[string]string{
		commonsv1alpha1.ConditionAvailable:         "True",
		commonsv1alpha1.ConditionReconcileComplete: "True",
		commonsv1alpha1.ConditionDegraded:          "False",
		commonsv1alpha1.ConditionProgressing:       "False",
	}
	var bad []string
	for _, typ := range slices.Sorted(maps.Keys(want)) {
		c := conditionOf(cr, typ)
		if c == nil || c.Status != want[typ] || c.ObservedGeneration != cr.Generation {
			bad = append(bad, fmt.Sprintf("%s=%v", typ, c))
		}
	}
	if len(bad) > 0 {
		return false, cr.Name + ": " + strings.Join(bad, ", ")
	}
	return true, ""
}
