package orphan

import (
	"context"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// waitGrace marks the group pending deletion and holds it until
// Options.GracePeriod has passed since the mark. The mark goes on the
// StatefulSet and on the ConfigMap, so it outlives the StatefulSet's
// deletion; the earliest mark found counts, and an object missing it gets
// that one.
func (c *Cleaner) waitGrace(ctx context.Context, g *group) (bool, error) {
	grace, anchors := c.opts.GracePeriod, g.anchors()
	if grace <= 0 || len(anchors) == 0 {
		return true, nil
	}
	var since time.Time
	for _, obj := range anchors {
		if t, ok := markTime(obj, v1alpha1.AnnotationPendingDeletion); ok && (since.IsZero() || t.Before(since)) {
			since = t
		}
	}
	fresh := since.IsZero()
	if fresh {
		since = stampTime(g.now)
	}
	for _, obj := range anchors {
		if _, ok := markTime(obj, v1alpha1.AnnotationPendingDeletion); ok {
			continue
		}
		if err := c.stamp(ctx, obj, v1alpha1.AnnotationPendingDeletion, since); err != nil {
			return false, err
		}
		if fresh {
			c.record(ctx, g, ActionMarked, obj)
		} else {
			logr.FromContextOrDiscard(ctx).V(1).Info("pending-deletion mark copied", "kind", c.kind(obj), "name", obj.GetName())
		}
	}
	g.setWindow(since, grace)
	if left := g.report.Deadline.Sub(g.now); left > 0 {
		if !fresh {
			logr.FromContextOrDiscard(ctx).V(1).Info("waiting out the grace period", "left", left)
		}
		g.requeue = left
		return false, nil
	}
	g.report.Since, g.report.Deadline = time.Time{}, time.Time{}
	return true, nil
}

// scaleDown sets the StatefulSet's replicas to zero and stamps the start of
// its drain in the same write. The write starts from the StatefulSet as
// read; a conflict (a stale read, or another writer) reads it afresh
// through the uncached reader.
func (c *Cleaner) scaleDown(ctx context.Context, g *group) (bool, error) {
	if g.sts == nil || ptr.Deref(g.sts.Spec.Replicas, 1) == 0 {
		return true, nil
	}
	stamp := stampTime(g.now)
	key := client.ObjectKeyFromObject(g.sts)
	attempt := 0
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if attempt++; attempt > 1 {
			if err := c.reader.Get(ctx, key, g.sts); err != nil {
				return err
			}
		}
		g.sts.Spec.Replicas = ptr.To[int32](0)
		if g.sts.Annotations == nil {
			g.sts.Annotations = map[string]string{}
		}
		g.sts.Annotations[v1alpha1.AnnotationDrainStarted] = stamp.Format(time.RFC3339)
		return c.client.Update(ctx, g.sts)
	})
	if apierrors.IsNotFound(err) {
		return false, nil // gone meanwhile: the next pass reads it so
	}
	if err != nil {
		return false, fmt.Errorf("scaling StatefulSet %s to zero: %w", key.Name, apierr.Classify(err))
	}
	c.record(ctx, g, ActionScaledDown, g.sts)
	g.setWindow(stamp, c.opts.DrainTimeout)
	return false, nil
}

// waitDrain holds the group until the StatefulSet controller reports no
// pods for the current spec, at most Options.DrainTimeout from the drain
// mark. A StatefulSet found at zero replicas without the mark (applied so,
// or scaled by someone else) gets the mark first.
func (c *Cleaner) waitDrain(ctx context.Context, g *group) (bool, error) {
	if g.sts == nil || drained(g.sts) {
		return true, nil
	}
	started, ok := markTime(g.sts, v1alpha1.AnnotationDrainStarted)
	if !ok {
		stamped := stampTime(g.now)
		if err := c.stamp(ctx, g.sts, v1alpha1.AnnotationDrainStarted, stamped); err != nil {
			return false, err
		}
		c.record(ctx, g, ActionDrainStarted, g.sts)
		g.setWindow(stamped, c.opts.DrainTimeout)
		return false, nil
	}
	g.setWindow(started, c.opts.DrainTimeout)
	log := logr.FromContextOrDiscard(ctx)
	if left := g.report.Deadline.Sub(g.now); left > 0 {
		log.V(1).Info("waiting for the drain", "left", left, "replicas", g.sts.Status.Replicas,
			"generation", g.sts.Generation, "observedGeneration", g.sts.Status.ObservedGeneration)
		g.requeue = min(left, c.opts.DrainPollInterval)
		return false, nil
	}
	log.Info("drain timed out", "replicas", g.sts.Status.Replicas, "timeout", c.opts.DrainTimeout)
	g.drainTimedOut = true
	g.report.Since, g.report.Deadline = time.Time{}, time.Time{}
	return true, nil
}

// drained reports whether the StatefulSet controller has observed the
// current spec and counts no pods. A status written for an older
// generation says nothing about the pods of this one: right after the
// scale-down it may still show the zero of a StatefulSet whose pods were
// not yet counted.
func drained(sts *appsv1.StatefulSet) bool {
	return sts.Status.ObservedGeneration >= sts.Generation && sts.Status.Replicas == 0
}
