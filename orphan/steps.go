package orphan

import (
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
)

// step is the outcome of advancing one group.
type step struct {
	done    bool
	requeue time.Duration
}

// advance moves one removed role group by at most one step. Every object
// is read through the uncached reader; an object that is absent, or not
// the cluster's, counts as gone and is never touched.
func (c *Cleaner) advance(ctx context.Context, sc scope, ref v1alpha1.RoleGroupRef) (step, error) {
	name := builders.RoleGroupResourceName(sc.cluster, ref.Role, ref.Group)
	poll := step{requeue: c.opts.DrainPollInterval}
	now := c.opts.Clock.Now()

	sts := &appsv1.StatefulSet{}
	hasSTS, err := c.getOurs(ctx, sc, ref, sts, name)
	if err != nil {
		return poll, err
	}
	cm := &corev1.ConfigMap{}
	hasCM, err := c.getOurs(ctx, sc, ref, cm, name)
	if err != nil {
		return poll, err
	}

	// Grace period: marked on the StatefulSet, else the ConfigMap.
	if grace := c.opts.GracePeriod; grace > 0 && (hasSTS || hasCM) {
		var anchor client.Object = cm
		if hasSTS {
			anchor = sts
		}
		since, ok := markTime(anchor, v1alpha1.AnnotationPendingDeletion)
		if !ok {
			return step{requeue: grace}, c.stamp(ctx, anchor, v1alpha1.AnnotationPendingDeletion)
		}
		if left := since.Add(grace).Sub(now); left > 0 {
			return step{requeue: left}, nil
		}
	}

	// Scale to zero, then wait for the drain, bounded by the timeout.
	if hasSTS {
		if sts.Spec.Replicas == nil || *sts.Spec.Replicas != 0 {
			return poll, c.scaleToZero(ctx, sts)
		}
		started, ok := markTime(sts, v1alpha1.AnnotationDrainStarted)
		if !ok {
			return poll, c.stamp(ctx, sts, v1alpha1.AnnotationDrainStarted)
		}
		if sts.Status.Replicas > 0 {
			if left := started.Add(c.opts.DrainTimeout).Sub(now); left > 0 {
				return step{requeue: min(left, c.opts.DrainPollInterval)}, nil
			}
		}
	}

	// The role group's own PodDisruptionBudget, only with its slot label: a
	// product's PDB may share the name and the owner.
	pdb := &policyv1.PodDisruptionBudget{}
	if ok, err := c.getOurs(ctx, sc, ref, pdb, name); err != nil {
		return poll, err
	} else if ok && hasLabel(pdb, v1alpha1.LabelRoleGroupPodDisruptionBudget) {
		return poll, c.deleteOnce(ctx, pdb)
	}

	// Volume claims, when the cluster opts in: after the drain (or its
	// timeout), before the StatefulSet whose selector finds them.
	if sc.deletePVCs && hasSTS {
		issued, err := c.deleteClaims(ctx, sts)
		if err != nil || issued {
			return poll, err
		}
	}

	if hasSTS {
		err := c.deleteOnce(ctx, sts)
		if err == nil && sts.DeletionTimestamp == nil && sts.Status.Replicas > 0 {
			c.metrics.drainTimeouts.WithLabelValues(sc.namespace, sc.cluster).Inc()
		}
		return poll, err
	}

	// A product's extra objects, found by the group's labels.
	for _, gvk := range c.opts.ExtraKinds {
		issued, err := c.deleteExtras(ctx, sc, ref, gvk)
		if err != nil || issued {
			return poll, err
		}
	}

	if hasCM {
		return poll, c.deleteOnce(ctx, cm)
	}
	for _, svcName := range []string{name, builders.HeadlessServiceName(name), builders.MetricsServiceName(name)} {
		svc := &corev1.Service{}
		if ok, err := c.getOurs(ctx, sc, ref, svc, svcName); err != nil {
			return poll, err
		} else if ok {
			return poll, c.deleteOnce(ctx, svc)
		}
	}
	return step{done: true}, nil
}

// getOurs reads name into obj through the uncached reader and reports
// whether it exists and belongs to the cluster.
func (c *Cleaner) getOurs(ctx context.Context, sc scope, ref v1alpha1.RoleGroupRef, obj client.Object, name string) (bool, error) {
	err := c.reader.Get(ctx, client.ObjectKey{Namespace: sc.namespace, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %T %s: %w", obj, name, err)
	}
	return sc.ours(obj, ref), nil
}

// scaleToZero sets replicas to 0 and stamps the drain start, retrying on
// conflict with a fresh read.
func (c *Cleaner) scaleToZero(ctx context.Context, sts *appsv1.StatefulSet) error {
	key := client.ObjectKeyFromObject(sts)
	stamp := c.opts.Clock.Now().UTC().Format(time.RFC3339)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.reader.Get(ctx, key, sts); err != nil {
			return err
		}
		sts.Spec.Replicas = ptr.To[int32](0)
		if sts.Annotations == nil {
			sts.Annotations = map[string]string{}
		}
		sts.Annotations[v1alpha1.AnnotationDrainStarted] = stamp
		return c.client.Update(ctx, sts)
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("scaling StatefulSet %s to zero: %w", key.Name, err)
	}
	return nil
}

// deleteOnce deletes obj unless its deletion is already under way, with a
// UID precondition so a same-named replacement is never hit. Pods of a
// StatefulSet are left to the garbage collector.
func (c *Cleaner) deleteOnce(ctx context.Context, obj client.Object) error {
	if obj.GetDeletionTimestamp() != nil {
		return nil
	}
	uid := obj.GetUID()
	err := c.client.Delete(ctx, obj,
		client.Preconditions{UID: &uid},
		client.PropagationPolicy(metav1.DeletePropagationBackground))
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting %s %s: %w", kindOf(obj), obj.GetName(), err)
	}
	return nil
}

// deleteClaims deletes the volume claims of sts's claim templates, found by
// its selector and named <template>-<statefulset>-<ordinal>. It reports
// whether it issued a deletion. Claims already being deleted count as done:
// a claim in use by a pod stuck past the drain timeout waits for the pod,
// and must not hold up the rest of the teardown.
func (c *Cleaner) deleteClaims(ctx context.Context, sts *appsv1.StatefulSet) (bool, error) {
	if sts.Spec.Selector == nil || len(sts.Spec.VolumeClaimTemplates) == 0 {
		return false, nil
	}
	var claims corev1.PersistentVolumeClaimList
	if err := c.reader.List(ctx, &claims, client.InNamespace(sts.Namespace), client.MatchingLabels(sts.Spec.Selector.MatchLabels)); err != nil {
		return false, fmt.Errorf("listing volume claims of StatefulSet %s: %w", sts.Name, err)
	}
	issued := false
	for i := range claims.Items {
		pvc := &claims.Items[i]
		if !claimOf(pvc.Name, sts) || pvc.DeletionTimestamp != nil {
			continue
		}
		if err := c.deleteOnce(ctx, pvc); err != nil {
			return issued, err
		}
		issued = true
	}
	return issued, nil
}

func claimOf(claim string, sts *appsv1.StatefulSet) bool {
	for _, t := range sts.Spec.VolumeClaimTemplates {
		if rest, ok := strings.CutPrefix(claim, t.Name+"-"+sts.Name+"-"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// deleteExtras deletes the group's objects of a product's extra kind.
func (c *Cleaner) deleteExtras(ctx context.Context, sc scope, ref v1alpha1.RoleGroupRef, gvk schema.GroupVersionKind) (bool, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	sel := client.MatchingLabels{
		v1alpha1.LabelInstance:  sc.cluster,
		v1alpha1.LabelComponent: ref.Role,
		v1alpha1.LabelRoleGroup: ref.Group,
	}
	if err := c.reader.List(ctx, list, client.InNamespace(sc.namespace), sel); err != nil {
		return false, fmt.Errorf("listing %s of the role group: %w", gvk.Kind, err)
	}
	pending := false
	for i := range list.Items {
		obj := &list.Items[i]
		if !sc.ours(obj, ref) {
			continue
		}
		pending = true
		if err := c.deleteOnce(ctx, obj); err != nil {
			return true, err
		}
	}
	return pending, nil
}

func hasLabel(obj client.Object, key string) bool {
	_, ok := obj.GetLabels()[key]
	return ok
}

func kindOf(obj client.Object) string {
	if k := obj.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", obj), "*")
}
