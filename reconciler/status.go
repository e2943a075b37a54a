package reconciler

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// setCondition sets a condition of the resource's status for its current
// generation through apimachinery's helper, which keeps the transition time
// when the status does not change and takes now, the pass's time from
// Config.Clock, when it does.
func setCondition(cr Cluster, now time.Time, typ string, st metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(&cr.GetClusterStatus().Conditions, metav1.Condition{
		Type:               typ,
		Status:             st,
		Reason:             reason,
		Message:            status.Truncate(message, status.MaxMessage),
		ObservedGeneration: cr.GetGeneration(),
		LastTransitionTime: metav1.NewTime(now),
	})
}

// writeStatus writes the resource's status when the pass changed anything
// of the object (the common status or the product's own status fields);
// an unchanged object costs no request, so the reconciler's watch on its
// own resource does not loop. See status.Update for conflicts.
func (r *Reconciler[CR]) writeStatus(ctx context.Context, orig, cr CR) error {
	if equality.Semantic.DeepEqual(orig, cr) {
		return nil
	}
	return status.Update(ctx, status.Target{Client: r.client, Reader: r.apiReader, Versions: &r.fresh},
		cr, statusOf(orig), func(o client.Object) any { return statusOf(o.(CR)) })
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
