package reconciler

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// Condition statuses, short.
const (
	condTrue  = metav1.ConditionTrue
	condFalse = metav1.ConditionFalse
)

// setConditions turns the pass into the resource's conditions. A pass
// stopped by a rate limit does not get here: it changes no condition.
func (r *Reconciler[CR]) setConditions(p *pass, cr CR, err error, class failure.Class) {
	setCondition(cr, p.now, commonsv1alpha1.ConditionPaused, condFalse, ReasonAsExpected, "")
	if op := cr.GetClusterSpec().ClusterOperation; op != nil && op.Stopped {
		setCondition(cr, p.now, commonsv1alpha1.ConditionStopped, condTrue, ReasonStopped, "spec.clusterOperation.stopped is set: every role group runs 0 replicas")
	} else {
		setCondition(cr, p.now, commonsv1alpha1.ConditionStopped, condFalse, ReasonAsExpected, "")
	}
	// A pass that met only transient failures keeps the failure the
	// resource already reports: its lasting cause stays in view.
	keep := failure.Transient(err) && reportsFailure(cr)
	if keep {
		p.log.Info("transient failure; the conditions keep the failure they report", "error", message(err))
	}
	setOutcomeConditions(p, cr, err, class, keep)
	setHealthConditions(p, cr)
	if len(p.cleanup) > 0 {
		setCondition(cr, p.now, commonsv1alpha1.ConditionOrphanCleanupPending, condTrue, ReasonCleanupPending, strings.Join(p.cleanup, "\n"))
	} else {
		setCondition(cr, p.now, commonsv1alpha1.ConditionOrphanCleanupPending, condFalse, ReasonAsExpected, "")
	}
}

// setOutcomeConditions sets ReconcileComplete, Waiting and Degraded from
// the pass's failure and the health of the pods; keep leaves a failure
// already reported as it is.
func setOutcomeConditions(p *pass, cr Cluster, err error, class failure.Class, keep bool) {
	switch {
	case keep:
	case err != nil:
		setCondition(cr, p.now, commonsv1alpha1.ConditionReconcileComplete, condFalse, ReasonFailed, message(err))
	case len(p.ignored) > 0:
		// Role groups run concurrently: sorted, the message is stable.
		setCondition(cr, p.now, commonsv1alpha1.ConditionReconcileComplete, condFalse, ReasonImmutableFieldIgnored,
			strings.Join(slices.Sorted(slices.Values(p.ignored)), "\n"))
	case !p.settled:
		setCondition(cr, p.now, commonsv1alpha1.ConditionReconcileComplete, condFalse, ReasonRollingOut, "objects are applied; waiting for them to be ready")
	default:
		setCondition(cr, p.now, commonsv1alpha1.ConditionReconcileComplete, condTrue, ReasonComplete, "every object of the spec is applied and ready")
	}
	switch {
	case keep:
	case class == failure.ClassRequeue:
		setCondition(cr, p.now, commonsv1alpha1.ConditionWaiting, condTrue, ReasonWaiting, message(err))
	default:
		setCondition(cr, p.now, commonsv1alpha1.ConditionWaiting, condFalse, ReasonAsExpected, "")
	}
	h := p.health
	switch {
	case keep && conditionIs(cr, commonsv1alpha1.ConditionDegraded, condTrue, ReasonFailed):
	case class == failure.ClassInvalid || class == failure.ClassOther && err != nil:
		setCondition(cr, p.now, commonsv1alpha1.ConditionDegraded, condTrue, ReasonFailed, message(err))
	case len(h.refused) > 0:
		setCondition(cr, p.now, commonsv1alpha1.ConditionDegraded, condTrue, ReasonPodsRefused, h.unhealthy())
	case len(h.failing) > 0:
		setCondition(cr, p.now, commonsv1alpha1.ConditionDegraded, condTrue, ReasonPodsFailing, strings.Join(h.failing, "\n"))
	case h.checkErr != nil:
		setCondition(cr, p.now, commonsv1alpha1.ConditionDegraded, condTrue, ReasonHealthCheckFailed, h.checkErr.Error())
	default:
		setCondition(cr, p.now, commonsv1alpha1.ConditionDegraded, condFalse, ReasonAsExpected, "")
	}
}

// setHealthConditions sets Available and Progressing when the pass looked
// at the workloads' health.
func setHealthConditions(p *pass, cr Cluster) {
	h := p.health
	if !h.checked {
		return
	}
	switch {
	case h.available():
		setCondition(cr, p.now, commonsv1alpha1.ConditionAvailable, condTrue, ReasonReady, "every role group is ready")
	case len(h.refused) > 0:
		setCondition(cr, p.now, commonsv1alpha1.ConditionAvailable, condFalse, ReasonPodsRefused, h.unhealthy())
	case len(h.failing) > 0:
		setCondition(cr, p.now, commonsv1alpha1.ConditionAvailable, condFalse, ReasonPodsFailing, strings.Join(h.failing, "\n"))
	case h.checkErr != nil:
		setCondition(cr, p.now, commonsv1alpha1.ConditionAvailable, condFalse, ReasonHealthCheckFailed, h.checkErr.Error())
	default:
		setCondition(cr, p.now, commonsv1alpha1.ConditionAvailable, condFalse, ReasonRollingOut, strings.Join(h.rolling, "\n"))
	}
	if len(h.rolling) > 0 {
		setCondition(cr, p.now, commonsv1alpha1.ConditionProgressing, condTrue, ReasonRollingOut, strings.Join(h.rolling, "\n"))
	} else {
		setCondition(cr, p.now, commonsv1alpha1.ConditionProgressing, condFalse, ReasonAsExpected, "")
	}
}

// reportsFailure reports whether the resource's ReconcileComplete
// condition says, for its current generation, that a pass failed or that
// the spec cannot be applied as asked.
func reportsFailure(cr Cluster) bool {
	return conditionIs(cr, commonsv1alpha1.ConditionReconcileComplete, metav1.ConditionFalse, ReasonFailed) ||
		conditionIs(cr, commonsv1alpha1.ConditionReconcileComplete, metav1.ConditionFalse, ReasonImmutableFieldIgnored)
}

// conditionIs reports whether the condition typ has the status and reason
// for the resource's current generation.
func conditionIs(cr Cluster, typ string, status metav1.ConditionStatus, reason string) bool {
	c := meta.FindStatusCondition(cr.GetClusterStatus().Conditions, typ)
	return c != nil && c.Status == status && c.Reason == reason && c.ObservedGeneration == cr.GetGeneration()
}

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
		note := status.Truncate(w.message, status.MaxEventNote)
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
