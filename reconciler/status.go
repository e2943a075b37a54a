package reconciler

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// setCondition sets a condition of the resource's status for its current
// generation through apimachinery's helper, which keeps the transition time
// when the status does not change.
func setCondition(cr Cluster, typ string, status metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(&cr.GetClusterStatus().Conditions, metav1.Condition{
		Type:               typ,
		Status:             status,
		Reason:             reason,
		Message:            truncateMessage(message),
		ObservedGeneration: cr.GetGeneration(),
	})
}

// maxConditionMessage bounds a condition message (the API allows 32768
// bytes); a pass failing in many role groups stays readable and storable.
const maxConditionMessage = 4096

func truncateMessage(m string) string {
	if len(m) <= maxConditionMessage {
		return m
	}
	return m[:maxConditionMessage-3] + "..."
}

// writeStatus writes the resource's status when the pass changed anything
// of the object (the common status or the product's own status fields);
// an unchanged object costs no request, so the reconciler's watch on its
// own resource does not loop.
//
// On a conflict it reads the resource through the uncached reader: when
// only its metadata or spec moved on (the status is still what this pass
// started from), the write is retried on the fresh resourceVersion;
// otherwise someone else wrote the status and the pass is retried instead
// (a *failure.RetriableError), so nothing computed from a stale status is
// written. A resource deleted meanwhile is not an error.
func (r *Reconciler[CR]) writeStatus(ctx context.Context, orig, cr CR) error {
	if equality.Semantic.DeepEqual(orig, cr) {
		return nil
	}
	for attempt := 0; ; attempt++ {
		before := cr.GetResourceVersion()
		err := r.client.Status().Update(ctx, cr)
		switch {
		case err == nil:
			r.fresh.wrote(cr.GetUID(), before)
			return nil
		case apierrors.IsNotFound(err):
			return nil
		case !apierrors.IsConflict(err) || attempt >= 2:
			return fmt.Errorf("writing the status: %w", apierr.Classify(err))
		}
		fresh := r.cfg.For.DeepCopy()
		if err := r.apiReader.Get(ctx, client.ObjectKeyFromObject(cr), fresh); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("re-reading after a status conflict: %w", apierr.Classify(err))
		}
		if !equality.Semantic.DeepEqual(statusOf(fresh), statusOf(orig)) {
			return failure.Retriable(fmt.Errorf("the status was written by someone else during the pass"), 0)
		}
		cr.SetResourceVersion(fresh.GetResourceVersion())
	}
}

// statusOf returns the resource's status, the product's fields included,
// for comparing two reads.
func statusOf(cr Cluster) any {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cr)
	if err != nil {
		// A type that does not convert compares by its common status only.
		return cr.GetClusterStatus()
	}
	return u["status"]
}
