package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// productShape is every scenario cluster's roles: one server and one
// gateway, one replica each.
var productShape = map[string]map[string]int32{"server": {"default": 1}, "gateway": {"default": 1}}

// foreign are the objects of someone else a product scenario puts in the
// operator's way, in the namespace before the clusters:
//
//   - inTheWay has the name of the first cluster's gateway ConfigMap and
//     another owner's id: the adoption policy (if-unowned) forbids taking
//     it over, so that role group waits and the object is never written;
//   - lookalike carries the full label set of a role group the first
//     cluster does not declare, but the cluster does not control it: the
//     orphan cleaner must not take it for a removed group's ConfigMap.
func foreign(ns string) []*corev1.ConfigMap {
	first := clusterName(0)
	return []*corev1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: builders.RoleGroupResourceName(first, "gateway", "default"),
			Annotations: map[string]string{productName + "/" + apply.AnnotationOwnerID: "someone-else"}},
			Data: map[string]string{"owner": "someone else"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: builders.RoleGroupResourceName(first, "server", "retired"),
			Labels: map[string]string{
				commonsv1alpha1.LabelInstance:  first,
				commonsv1alpha1.LabelManagedBy: commonsv1alpha1.DefaultManagedBy,
				commonsv1alpha1.LabelComponent: "server",
				commonsv1alpha1.LabelRoleGroup: "retired",
				commonsv1alpha1.LabelName:      "sample",
				"e2e.opkit.dev/foreign":        "true",
			}},
			Data: map[string]string{"owner": "someone else"}},
	}
}

// products is the product workload: clusters of productShape, the first
// one blocked by a foreign object in its way.
var products = workload{
	what: "clusters",
	operator: func(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error {
		return productOperator(t, ns, operatorOptions{})
	},
	resource: func(ns string, i int) client.Object { return newCluster(ns, clusterName(i), productShape) },
	foreign:  foreign,
	settled:  allSettled,
	capture:  productCapturer,
	problems: func(ctx context.Context, c client.Reader, ns string) ([]string, error) {
		return inventoryProblems(ctx, c, ns, productName)
	},
	failures: trueConditions(commonsv1alpha1.ConditionDegraded),
}

// blockedBy is the text of the first cluster's waiting condition.
func blockedBy(ns string) string {
	return fmt.Sprintf("ConfigMap %s/%s exists with owner %q", ns, builders.RoleGroupResourceName(clusterName(0), "gateway", "default"), "someone-else")
}

// allSettled is done when every cluster settled, the first one waiting on
// the foreign object in its way with its other group ready.
func allSettled(c client.Client, ns string, n int) testkit.Condition[string] {
	return clustersJudged(c, ns, n, func(cr *sampleCluster) (bool, string) {
		if cr.Name == clusterName(0) {
			return waitsOnForeign(cr, ns)
		}
		return settled(cr)
	})
}

// allClustersSettled is done when the n clusters of ns settled.
func allClustersSettled(c client.Client, ns string, n int) testkit.Condition[string] {
	return clustersJudged(c, ns, n, settled)
}

// clustersJudged is done when ns holds n clusters and judge passes each;
// its state lists why the others do not.
func clustersJudged(c client.Client, ns string, n int, judge func(*sampleCluster) (bool, string)) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		var list samplev1alpha1.SampleClusterList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return "", false, err
		}
		if len(list.Items) != n {
			return fmt.Sprintf("%d clusters", len(list.Items)), false, nil
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

// waitsOnForeign reports whether the first cluster is where the foreign
// object leaves it: waiting for it, for its current generation.
func waitsOnForeign(cr *sampleCluster, ns string) (bool, string) {
	c := conditionOf(cr, commonsv1alpha1.ConditionWaiting)
	// Only on it: a second line is another failure still to be retried.
	if cr.Status.ObservedGeneration != cr.Generation || c == nil || c.Status != "True" ||
		!strings.Contains(c.Message, blockedBy(ns)) || strings.Contains(c.Message, "\n") {
		return false, fmt.Sprintf("%s: not waiting on the foreign ConfigMap alone: %+v", cr.Name, c)
	}
	// The other group runs: what exists of the cluster is available.
	for typ, want := range map[string]string{
		commonsv1alpha1.ConditionAvailable:   "True",
		commonsv1alpha1.ConditionProgressing: "False",
		commonsv1alpha1.ConditionDegraded:    "False",
	} {
		if c := conditionOf(cr, typ); c == nil || c.Status != want {
			return false, fmt.Sprintf("%s: %s=%+v", cr.Name, typ, c)
		}
	}
	// And is recorded ready: the pass that saw it ready ran too (the
	// health check may see a StatefulSet ready that the same pass's engine
	// saw still starting; the progress interval brings the pass that
	// records it).
	blocked := string(cr.UID) + "/gateway/default"
	for _, it := range scopedItems(cr) {
		if ph := it.item.EffectivePhase(); it.owner != blocked && ph != inventory.PhaseReady && ph != inventory.PhaseCompleted {
			return false, fmt.Sprintf("%s: %s recorded %s, not ready yet", cr.Name, it.item.Ref(), ph)
		}
	}
	return true, ""
}
