package orphan

import (
	"context"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// liveGroup is what discovery saw of one role group.
type liveGroup struct {
	statefulSet *appsv1.StatefulSet
	configMap   *corev1.ConfigMap
	// services is set when one of the group's three Services is left: the
	// teardown deletes them last, after the StatefulSet and ConfigMap.
	services bool
}

// objects returns the group's discovered objects.
func (g liveGroup) objects() []client.Object {
	var out []client.Object
	if g.statefulSet != nil {
		out = append(out, g.statefulSet)
	}
	if g.configMap != nil {
		out = append(out, g.configMap)
	}
	return out
}

// discover lists the role-group StatefulSets, ConfigMaps and Services of
// the cluster.
// An object counts only when it is controller-owned by the cluster
// resource, carries the full role-group label set and has exactly the name
// builders.RoleGroupResourceName gives for its labels: a discovery
// ConfigMap or a product's extra object may share owner and labels, never
// the name. Without an owner UID nothing is discovered.
func (c *Cleaner) discover(ctx context.Context, sc scope) (map[v1alpha1.RoleGroupRef]liveGroup, error) {
	out := map[v1alpha1.RoleGroupRef]liveGroup{}
	if sc.uid == "" {
		return out, nil
	}
	opts := append(c.inCluster(sc), client.MatchingLabels{v1alpha1.LabelInstance: sc.cluster, v1alpha1.LabelManagedBy: sc.managedBy})
	kinds := []struct {
		list  client.ObjectList
		names func(base string) []string
		mark  func(g *liveGroup, obj client.Object)
	}{
		{&appsv1.StatefulSetList{}, onlyBase, func(g *liveGroup, obj client.Object) { g.statefulSet = obj.(*appsv1.StatefulSet) }},
		{&corev1.ConfigMapList{}, onlyBase, func(g *liveGroup, obj client.Object) { g.configMap = obj.(*corev1.ConfigMap) }},
		{&corev1.ServiceList{}, serviceNames, func(g *liveGroup, _ client.Object) { g.services = true }},
	}
	for _, k := range kinds {
		if err := c.client.List(ctx, k.list, opts...); err != nil {
			return nil, apierr.Classify(err)
		}
		items, err := meta.ExtractList(k.list)
		if err != nil {
			return nil, err
		}
		for _, item := range items {
			obj, ok := item.(client.Object)
			if !ok {
				continue
			}
			if ref, ok := sc.claim(obj, k.names); ok {
				g := out[ref]
				k.mark(&g, obj)
				out[ref] = g
			}
		}
	}
	return out, nil
}

// onlyBase and serviceNames give the names a role group's objects of a kind
// may have, from the group's base name.
func onlyBase(base string) []string { return []string{base} }

func serviceNames(base string) []string {
	return []string{base, builders.HeadlessServiceName(base), builders.MetricsServiceName(base)}
}

// claim returns the role group obj belongs to, if it is one of the
// cluster's role-group objects: it carries the group's labels, is
// controlled by the cluster resource and is named as names gives for the
// group's derived base name.
func (sc scope) claim(obj client.Object, names func(base string) []string) (v1alpha1.RoleGroupRef, bool) {
	labels := obj.GetLabels()
	ref := v1alpha1.RoleGroupRef{Role: labels[v1alpha1.LabelComponent], Group: labels[v1alpha1.LabelRoleGroup]}
	if ref.Role == "" || ref.Group == "" ||
		labels[v1alpha1.LabelInstance] != sc.cluster || labels[v1alpha1.LabelManagedBy] != sc.managedBy ||
		!sc.controlledBy(obj) {
		return ref, false
	}
	return ref, slices.Contains(names(builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group)), obj.GetName())
}

// controlledBy reports whether the cluster resource is obj's controller.
func (sc scope) controlledBy(obj metav1.Object) bool {
	owner := metav1.GetControllerOf(obj)
	return owner != nil && sc.uid != "" && owner.UID == sc.uid
}

// ours reports whether obj, found by the derived name of ref, belongs to
// the cluster: controller-owned by it or, without an owner UID, carrying
// the group's labels.
func (sc scope) ours(obj metav1.Object, ref v1alpha1.RoleGroupRef) bool {
	if sc.uid != "" {
		return sc.controlledBy(obj)
	}
	labels := obj.GetLabels()
	return labels[v1alpha1.LabelInstance] == sc.cluster &&
		labels[v1alpha1.LabelComponent] == ref.Role &&
		labels[v1alpha1.LabelRoleGroup] == ref.Group
}
