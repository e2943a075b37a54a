package orphan

import (
	"context"
	"fmt"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// A pass reads a removed group's objects through the client (a manager's
// cache, typically): waiting out a grace period or a drain, and each
// delete, cost no read of the API server. Only the verdict that nothing is
// left is confirmed through the uncached reader, before the group is
// reported reclaimed (and so dropped from the ledger): one list of
// metadata, selected by the group's labels, per kind of object the group
// held, for the cache may not have seen an object yet. Should it find
// something the cache missed, the group's steps run again in the same
// pass, reading through the uncached reader.

// teardownKind is a kind of object a teardown deletes, and which of the
// group's objects of the kind it deletes and waits for.
type teardownKind struct {
	gvk schema.GroupVersionKind
	// labels select the group's objects of the kind.
	labels func(g *group) client.MatchingLabels
	// left reports whether obj, listed by labels, is still to go.
	left func(g *group, obj metav1.Object) bool
}

// teardownKinds are the kinds the teardown of g deletes: its StatefulSet,
// ConfigMap, Services and PodDisruptionBudget, the extra kinds, and its
// volume claims when the cluster resource opts in.
func (c *Cleaner) teardownKinds(g *group) []teardownKind {
	named := func(names func(base string) []string) func(g *group, obj metav1.Object) bool {
		return func(g *group, obj metav1.Object) bool {
			return slices.Contains(names(g.name), obj.GetName()) && g.sc.ours(obj, g.ref)
		}
	}
	kinds := []teardownKind{
		{appsv1.SchemeGroupVersion.WithKind("StatefulSet"), groupLabels, named(onlyBase)},
		{corev1.SchemeGroupVersion.WithKind("ConfigMap"), groupLabels, named(onlyBase)},
		{corev1.SchemeGroupVersion.WithKind("Service"), groupLabels, named(serviceNames)},
		{policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"), groupLabels, func(g *group, obj metav1.Object) bool {
			_, slot := obj.GetLabels()[v1alpha1.LabelRoleGroupPodDisruptionBudget]
			return slot && named(onlyBase)(g, obj)
		}},
	}
	for _, gvk := range c.opts.ExtraKinds {
		kinds = append(kinds, teardownKind{gvk, groupLabels, func(g *group, obj metav1.Object) bool { return g.sc.ours(obj, g.ref) }})
	}
	if g.sc.deletePVCs {
		kinds = append(kinds, teardownKind{corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"), claimLabels,
			func(g *group, obj metav1.Object) bool {
				// Claims being deleted count as done (see deleteClaims).
				return obj.GetDeletionTimestamp() == nil && claimOf(obj.GetName(), g.name, nil)
			}})
	}
	return kinds
}

// groupLabels select the objects of a role group.
func groupLabels(g *group) client.MatchingLabels {
	return client.MatchingLabels{
		v1alpha1.LabelInstance:  g.sc.cluster,
		v1alpha1.LabelComponent: g.ref.Role,
		v1alpha1.LabelRoleGroup: g.ref.Group,
	}
}

// claimLabels select the volume claims of a role group: the selector
// labels of its StatefulSet, which the StatefulSet controller copies onto
// them.
func claimLabels(g *group) client.MatchingLabels {
	return builders.Scope{Namespace: g.sc.namespace, Cluster: g.sc.cluster, Role: g.ref.Role, RoleGroup: g.ref.Group, ManagedBy: g.sc.managedBy}.SelectorLabels()
}

// heldKinds returns the kinds of object the ledger entry of each group
// records. A group without an entry, or whose entry records nothing, is
// left out: what it held is unknown, so every kind is confirmed.
func heldKinds(ledger []v1alpha1.RoleGroupStatus) map[v1alpha1.RoleGroupRef]map[schema.GroupKind]bool {
	out := map[v1alpha1.RoleGroupRef]map[schema.GroupKind]bool{}
	for _, e := range ledger {
		if len(e.Objects.Items) == 0 {
			continue
		}
		held := map[schema.GroupKind]bool{}
		for _, it := range e.Objects.Items {
			held[schema.GroupKind{Group: it.Group, Kind: it.Kind}] = true
		}
		out[e.RoleGroupRef] = held
	}
	return out
}

// held reports whether the group held objects of kind k: its ledger entry
// records one, or, when it records nothing, always. Volume claims are
// held by a group that held a StatefulSet, whose controller made them.
func (g *group) held(k schema.GroupKind) bool {
	if g.kinds == nil {
		return true
	}
	if k == (schema.GroupKind{Kind: "PersistentVolumeClaim"}) {
		k = schema.GroupKind{Group: appsv1.GroupName, Kind: "StatefulSet"}
	}
	return g.kinds[k]
}

// leftUncached lists, through the uncached reader, the group's objects of
// every kind it held, and reports whether any is still to go.
func (c *Cleaner) leftUncached(ctx context.Context, g *group) (bool, error) {
	for _, k := range c.teardownKinds(g) {
		if !g.held(k.gvk.GroupKind()) {
			continue
		}
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(k.gvk.GroupVersion().WithKind(k.gvk.Kind + "List"))
		if err := c.reader.List(ctx, list, client.InNamespace(g.sc.namespace), k.labels(g)); err != nil {
			return false, fmt.Errorf("confirming no %s of the role group is left: %w", k.gvk.Kind, apierr.Classify(err))
		}
		for i := range list.Items {
			if k.left(g, &list.Items[i]) {
				return true, nil
			}
		}
	}
	return false, nil
}
