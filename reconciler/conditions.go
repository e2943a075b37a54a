package reconciler

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// setConditions turns the pass into the resource's conditions. A pass
// stopped by a rate limit does not get here: it changes no condition.
func (r *Reconciler[CR]) setConditions(p *pass, cr CR, err error, class failure.Class) {
	const (
		t = metav1.ConditionTrue
		f = metav1.ConditionFalse
	)
	setCondition(cr, commonsv1alpha1.ConditionPaused, f, ReasonAsExpected, "")
	if op := cr.GetClusterSpec().ClusterOperation; op != nil && op.Stopped {
		setCondition(cr, commonsv1alpha1.ConditionStopped, t, ReasonStopped, "spec.clusterOperation.stopped is set: every role group runs 0 replicas")
	} else {
		setCondition(cr, commonsv1alpha1.ConditionStopped, f, ReasonAsExpected, "")
	}

	// A pass that met only transient failures keeps the failure the
	// resource already reports: its lasting cause stays in view.
	keep := failure.Transient(err) && reportsFailure(cr)
	switch {
	case keep:
		p.log.Info("transient failure; the conditions keep the failure they report", "error", message(err))
	case err != nil:
		setCondition(cr, commonsv1alpha1.ConditionReconcileComplete, f, ReasonFailed, message(err))
	case !p.settled:
		setCondition(cr, commonsv1alpha1.ConditionReconcileComplete, f, ReasonRollingOut, "objects are applied; waiting for them to be ready")
	default:
		setCondition(cr, commonsv1alpha1.ConditionReconcileComplete, t, ReasonComplete, "every object of the spec is applied and ready")
	}

	switch {
	case keep:
	case class == failure.ClassRequeue:
		setCondition(cr, commonsv1alpha1.ConditionWaiting, t, ReasonWaiting, message(err))
	default:
		setCondition(cr, commonsv1alpha1.ConditionWaiting, f, ReasonAsExpected, "")
	}

	h := p.health
	switch {
	case keep && conditionIs(cr, commonsv1alpha1.ConditionDegraded, t, ReasonFailed):
	case class == failure.ClassInvalid || class == failure.ClassOther && err != nil:
		setCondition(cr, commonsv1alpha1.ConditionDegraded, t, ReasonFailed, message(err))
	case len(h.failing) > 0:
		setCondition(cr, commonsv1alpha1.ConditionDegraded, t, ReasonPodsFailing, strings.Join(h.failing, "\n"))
	case h.checkErr != nil:
		setCondition(cr, commonsv1alpha1.ConditionDegraded, t, ReasonHealthCheckFailed, h.checkErr.Error())
	default:
		setCondition(cr, commonsv1alpha1.ConditionDegraded, f, ReasonAsExpected, "")
	}

	if h.checked {
		switch {
		case h.available():
			setCondition(cr, commonsv1alpha1.ConditionAvailable, t, ReasonReady, "every role group is ready")
		case len(h.failing) > 0:
			setCondition(cr, commonsv1alpha1.ConditionAvailable, f, ReasonPodsFailing, strings.Join(h.failing, "\n"))
		case h.checkErr != nil:
			setCondition(cr, commonsv1alpha1.ConditionAvailable, f, ReasonHealthCheckFailed, h.checkErr.Error())
		default:
			setCondition(cr, commonsv1alpha1.ConditionAvailable, f, ReasonRollingOut, strings.Join(h.rolling, "\n"))
		}
		if len(h.rolling) > 0 {
			setCondition(cr, commonsv1alpha1.ConditionProgressing, t, ReasonRollingOut, strings.Join(h.rolling, "\n"))
		} else {
			setCondition(cr, commonsv1alpha1.ConditionProgressing, f, ReasonAsExpected, "")
		}
	}

	if len(p.cleanup) > 0 {
		setCondition(cr, commonsv1alpha1.ConditionOrphanCleanupPending, t, ReasonCleanupPending, strings.Join(p.cleanup, "\n"))
	} else {
		setCondition(cr, commonsv1alpha1.ConditionOrphanCleanupPending, f, ReasonAsExpected, "")
	}
}

// reportsFailure reports whether the resource's ReconcileComplete
// condition says, for its current generation, that a pass failed.
func reportsFailure(cr Cluster) bool {
	return conditionIs(cr, commonsv1alpha1.ConditionReconcileComplete, metav1.ConditionFalse, ReasonFailed)
}

// conditionIs reports whether the condition typ has the status and reason
// for the resource's current generation.
func conditionIs(cr Cluster, typ string, status metav1.ConditionStatus, reason string) bool {
	c := meta.FindStatusCondition(cr.GetClusterStatus().Conditions, typ)
	return c != nil && c.Status == status && c.Reason == reason && c.ObservedGeneration == cr.GetGeneration()
}

// maxEventNote bounds an event's note (the events API refuses more than
// 1 KiB).
const maxEventNote = 1000

// recordEvents records the pass's warnings, its failure and the orphan
// cleaner's steps on the resource. The object engine's writes are logged,
// not recorded: a reverted edit costs its write and no event. A pass that
// found nothing wrong records nothing.
func (r *Reconciler[CR]) recordEvents(p *pass, cr CR, err error, class failure.Class) {
	seen := map[string]bool{}
	emit := func(typ string, w warning) {
		if seen[w.reason+"\x00"+w.message] {
			return
		}
		seen[w.reason+"\x00"+w.message] = true
		note := w.message
		if len(note) > maxEventNote {
			note = note[:maxEventNote-3] + "..."
		}
		var related runtime.Object
		if w.related != nil {
			related = w.related
		}
		r.recorder.Eventf(cr, related, typ, w.reason, "Reconcile", "%s", note)
	}
	for _, w := range p.warnings {
		emit(corev1.EventTypeWarning, w)
	}
	switch class {
	case failure.ClassRateLimited:
		emit(corev1.EventTypeNormal, warning{reason: ReasonRateLimited, message: fmt.Sprintf("backing off for %s: %v", failure.Delay(err), err)})
	case failure.ClassInvalid:
		emit(corev1.EventTypeWarning, warning{reason: ReasonInvalidSpec, message: message(err)})
	case failure.ClassOther:
		if err != nil {
			emit(corev1.EventTypeWarning, warning{reason: ReasonReconcileError, message: message(err)})
		}
	}
	for _, n := range p.normals {
		emit(corev1.EventTypeNormal, n)
	}
}
