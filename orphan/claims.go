package orphan

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/builders"
)

// deleteClaims deletes the group's volume claims when the cluster resource
// opts in. It runs after the drain (or its timeout) and before the
// StatefulSet, and it still finds the claims when the StatefulSet is
// already gone: deleted by hand, or by a process that died before the
// claims went. Claims already being deleted count as done: a claim in use
// by a pod stuck past the drain timeout waits for the pod and must not
// hold up the rest of the teardown.
func (c *Cleaner) deleteClaims(ctx context.Context, g *group) (bool, error) {
	if !g.sc.deletePVCs {
		return true, nil
	}
	claims, err := c.claimsOf(ctx, g)
	if err != nil {
		return false, err
	}
	issued := false
	for _, pvc := range claims {
		ok, err := c.deleteOnce(ctx, pvc)
		if err != nil {
			return false, err
		}
		if ok {
			c.record(ctx, g, ActionDeleted, pvc)
			issued = true
		}
	}
	return !issued, nil
}

// claimsOf lists the group's volume claims, named
// <template>-<statefulset>-<ordinal>. With the StatefulSet at hand they are
// found through its selector and claim templates, which the StatefulSet
// controller copies onto them; without it, through the selector labels
// builders gives the role group and the name's shape alone. They are
// listed as metadata, all a deletion needs.
func (c *Cleaner) claimsOf(ctx context.Context, g *group) ([]*metav1.PartialObjectMetadata, error) {
	sel := builders.Scope{Namespace: g.sc.namespace, Cluster: g.sc.cluster, Role: g.ref.Role, RoleGroup: g.ref.Group, ManagedBy: g.sc.managedBy}.SelectorLabels()
	var templates []string
	if g.sts != nil {
		if len(g.sts.Spec.VolumeClaimTemplates) == 0 || g.sts.Spec.Selector == nil {
			return nil, nil
		}
		sel = g.sts.Spec.Selector.MatchLabels
		for _, t := range g.sts.Spec.VolumeClaimTemplates {
			templates = append(templates, t.Name)
		}
	}
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaimList"))
	if err := g.read.List(ctx, list, client.InNamespace(g.sc.namespace), client.MatchingLabels(sel)); err != nil {
		return nil, fmt.Errorf("listing PersistentVolumeClaims of StatefulSet %s: %w", g.name, apierr.Classify(err))
	}
	var out []*metav1.PartialObjectMetadata
	for i := range list.Items {
		if pvc := &list.Items[i]; claimOf(pvc.Name, g.name, templates) {
			pvc.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"))
			out = append(out, pvc)
		}
	}
	return out, nil
}

// claimOf reports whether claim is named <template>-<statefulSet>-<ordinal>
// for one of templates or, when templates is empty, for any non-empty
// template name.
func claimOf(claim, statefulSet string, templates []string) bool {
	head, ordinal, ok := cutLast(claim, "-")
	if !ok || ordinal == "" || strings.Trim(ordinal, "0123456789") != "" {
		return false
	}
	template, ok := strings.CutSuffix(head, "-"+statefulSet)
	if !ok || template == "" {
		return false
	}
	return len(templates) == 0 || slices.Contains(templates, template)
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
