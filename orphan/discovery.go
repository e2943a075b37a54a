package orphan

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
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
	sel := client.MatchingLabels{v1alpha1.LabelInstance: sc.cluster, v1alpha1.LabelManagedBy: sc.managedBy}

	var sets appsv1.StatefulSetList
	if err := c.client.List(ctx, &sets, client.InNamespace(sc.namespace), sel); err != nil {
		return nil, err
	}
	for i := range sets.Items {
		if ref, ok := sc.claim(&sets.Items[i]); ok {
			g := out[ref]
			g.statefulSet = &sets.Items[i]
			out[ref] = g
		}
	}
	var cms corev1.ConfigMapList
	if err := c.client.List(ctx, &cms, client.InNamespace(sc.namespace), sel); err != nil {
		return nil, err
	}
	for i := range cms.Items {
		if ref, ok := sc.claim(&cms.Items[i]); ok {
			g := out[ref]
			g.configMap = &cms.Items[i]
			out[ref] = g
		}
	}
	var svcs corev1.ServiceList
	if err := c.client.List(ctx, &svcs, client.InNamespace(sc.namespace), sel); err != nil {
		return nil, err
	}
	for i := range svcs.Items {
		if ref, ok := sc.claimService(&svcs.Items[i]); ok {
			g := out[ref]
			g.services = true
			out[ref] = g
		}
	}
	return out, nil
}

// claimService is claim for the group's client, headless and metrics
// Services.
func (sc scope) claimService(svc *corev1.Service) (v1alpha1.RoleGroupRef, bool) {
	name := svc.Name
	svc = svc.DeepCopy()
	ref, _ := sc.claim(svc)
	base := builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group)
	if name != base && name != builders.HeadlessServiceName(base) && name != builders.MetricsServiceName(base) {
		return ref, false
	}
	svc.Name = base
	return sc.claim(svc)
}

// claim returns the role group obj belongs to, if it is one of the
// cluster's role-group objects.
func (sc scope) claim(obj client.Object) (v1alpha1.RoleGroupRef, bool) {
	labels := obj.GetLabels()
	ref := v1alpha1.RoleGroupRef{Role: labels[v1alpha1.LabelComponent], Group: labels[v1alpha1.LabelRoleGroup]}
	if ref.Role == "" || ref.Group == "" ||
		labels[v1alpha1.LabelInstance] != sc.cluster || labels[v1alpha1.LabelManagedBy] != sc.managedBy {
		return ref, false
	}
	if !sc.controlledBy(obj) {
		return ref, false
	}
	return ref, obj.GetName() == builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group)
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
