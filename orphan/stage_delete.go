package orphan

import (
	"context"
	"fmt"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// deletePDB deletes the group's own PodDisruptionBudget, only with its slot
// label: a product's PDB may share the name and the owner.
func (c *Cleaner) deletePDB(ctx context.Context, g *group) (bool, error) {
	pdb := &policyv1.PodDisruptionBudget{}
	ok, err := c.getOurs(ctx, g, pdb, g.name)
	if err != nil {
		return false, err
	}
	if !ok || !hasLabel(pdb, v1alpha1.LabelRoleGroupPodDisruptionBudget) {
		return true, nil
	}
	return false, c.deleteAndRecord(ctx, g, pdb, ActionDeleted)
}

// deleteStatefulSet deletes the StatefulSet, counting a deletion with pods
// left after the drain timeout.
func (c *Cleaner) deleteStatefulSet(ctx context.Context, g *group) (bool, error) {
	if g.sts == nil {
		return true, nil
	}
	typ := ActionDeleted
	if g.drainTimedOut {
		typ = ActionDeletedAfterDrainTimeout
	}
	return false, c.deleteAndRecord(ctx, g, g.sts, typ)
}

// deleteExtras deletes the group's objects of the product's extra kinds,
// found by the group's labels and the cluster's controller reference.
func (c *Cleaner) deleteExtras(ctx context.Context, g *group) (bool, error) {
	for _, gvk := range c.opts.ExtraKinds {
		objs, err := c.extrasOf(ctx, g, gvk)
		if err != nil {
			return false, err
		}
		for _, obj := range objs {
			if err := c.deleteAndRecord(ctx, g, obj, ActionDeleted); err != nil {
				return false, err
			}
		}
		if len(objs) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// extrasOf lists the group's objects of an extra kind, typed where the
// client's scheme knows the kind (so a cached client answers from the
// informer that already holds them), unstructured otherwise.
func (c *Cleaner) extrasOf(ctx context.Context, g *group, gvk schema.GroupVersionKind) ([]client.Object, error) {
	listGVK := gvk.GroupVersion().WithKind(gvk.Kind + "List")
	var list client.ObjectList
	if typed, err := c.client.Scheme().New(listGVK); err == nil {
		list, _ = typed.(client.ObjectList)
	}
	if list == nil {
		u := &unstructured.UnstructuredList{}
		u.SetGroupVersionKind(listGVK)
		list = u
	}
	if err := g.read.List(ctx, list, client.InNamespace(g.sc.namespace), groupLabels(g)); err != nil {
		return nil, fmt.Errorf("listing %s of the role group: %w", gvk.Kind, apierr.Classify(err))
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	var out []client.Object
	for _, item := range items {
		if obj, ok := item.(client.Object); ok && g.sc.ours(obj, g.ref) {
			obj.GetObjectKind().SetGroupVersionKind(gvk)
			out = append(out, obj)
		}
	}
	return out, nil
}

// deleteConfigMap deletes the group's ConfigMap.
func (c *Cleaner) deleteConfigMap(ctx context.Context, g *group) (bool, error) {
	if g.cm == nil {
		return true, nil
	}
	return false, c.deleteAndRecord(ctx, g, g.cm, ActionDeleted)
}

// deleteServices deletes the group's Service, headless Service and metrics
// Service, in that order.
func (c *Cleaner) deleteServices(ctx context.Context, g *group) (bool, error) {
	for _, name := range []string{g.name, builders.HeadlessServiceName(g.name), builders.MetricsServiceName(g.name)} {
		svc := &corev1.Service{}
		ok, err := c.getOurs(ctx, g, svc, name)
		if err != nil {
			return false, err
		}
		if ok {
			return false, c.deleteAndRecord(ctx, g, svc, ActionDeleted)
		}
	}
	return true, nil
}

// deleteAndRecord deletes obj once and records the action; an object
// already being deleted is waited for.
func (c *Cleaner) deleteAndRecord(ctx context.Context, g *group, obj client.Object, typ ActionType) error {
	issued, err := c.deleteOnce(ctx, obj)
	if err != nil {
		return err
	}
	if !issued {
		logr.FromContextOrDiscard(ctx).V(1).Info("waiting for the deletion", "kind", c.kind(obj), "name", obj.GetName())
		return nil
	}
	c.record(ctx, g, typ, obj)
	if typ == ActionDeletedAfterDrainTimeout {
		c.metrics.drainTimedOut(g.sc)
	}
	return nil
}
