package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/testkit"
)

var bundleKind = bundle.GroupVersion.WithKind("Bundle")

// componentCapturer captures a component namespace: the bundles with
// their state, conditions and inventory, and every object of their kinds.
var componentCapturer = capturer{kinds: bundle.Kinds(), owners: bundleKind, status: componentStatus, skip: defaultSkip}

// componentStatus is a bundle's status without what differs from run to
// run: times, and the inventory's digests, resource versions and
// generations.
func componentStatus(u *unstructured.Unstructured) (any, error) {
	b := &bundle.Bundle{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, b); err != nil {
		return nil, err
	}
	st := b.Status.Status
	conds := []any{}
	for _, c := range st.Conditions {
		conds = append(conds, map[string]any{"type": c.Type, "status": string(c.Status), "reason": c.Reason, "message": c.Message, "observedGeneration": c.ObservedGeneration})
	}
	return map[string]any{
		"state":              string(st.State),
		"conditions":         conds,
		"observedGeneration": st.ObservedGeneration,
		"appliedGeneration":  st.AppliedGeneration,
		"revision":           st.Revision,
		"processing":         st.ProcessingSince != nil,
		"inventory":          items(&st.Inventory),
	}, nil
}

// bundleReady reports whether a bundle is Ready for its generation.
func bundleReady(b *bundle.Bundle) (bool, string) {
	st := b.Status.Status
	cond := st.ReadyCondition()
	if st.State != componentv1alpha1.StateReady || cond == nil || cond.ObservedGeneration != b.Generation || st.ObservedGeneration != b.Generation {
		return false, fmt.Sprintf("%s: state %s, generation %d, observed %d, ready %+v", b.Name, st.State, b.Generation, st.ObservedGeneration, cond)
	}
	return true, ""
}

// bundlesJudged is done when ns holds n bundles and judge passes each.
func bundlesJudged(c client.Client, ns string, n int, judge func(*bundle.Bundle) (bool, string)) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		var list bundle.BundleList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return "", false, err
		}
		if len(list.Items) != n {
			return fmt.Sprintf("%d bundles", len(list.Items)), false, nil
		}
		var pending []string
		for i := range list.Items {
			if ok, why := judge(&list.Items[i]); !ok {
				pending = append(pending, why)
			}
		}
		slices.Sort(pending)
		return strings.Join(pending, "; "), len(pending) == 0, nil
	}
}

// componentInventoryProblems checks the bundles' inventories against the
// live objects of ns (see checkInventories).
func componentInventoryProblems(ctx context.Context, c client.Reader, ns string) ([]string, error) {
	var list bundle.BundleList
	if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	recorded := map[inventory.Key]scoped{}
	var owners []string
	for _, b := range list.Items {
		owner := b.Namespace + "/" + b.Name
		owners = append(owners, owner)
		for _, it := range b.Status.Inventory.Items {
			recorded[it.Key()] = scoped{owner: owner, item: it}
		}
	}
	return checkInventories(ctx, c, ns, componentName, bundle.Kinds(), recorded, func(owner string) bool { return slices.Contains(owners, owner) })
}
