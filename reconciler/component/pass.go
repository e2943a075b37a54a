package component

import (
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// pass is what one Reconcile call knows and decides.
type pass[T Component] struct {
	key    types.NamespacedName
	comp   T
	status *componentv1alpha1.Status
	// orig is the component before the pass changed anything.
	orig T
	now  time.Time
	log  logr.Logger

	// The component's intervals, defaults filled in.
	requeueInterval time.Duration
	retryInterval   time.Duration
	timeout         time.Duration

	// requeue is when the next pass is due; zero means only on events.
	requeue time.Duration
	// err is the pass's failure, for metrics and logs.
	err error
	// gone is set when the component's finalizer was removed: there is no
	// status left to write.
	gone bool
	// deleting is set when the component is being deleted: failures are
	// then reported as deletion states.
	deleting bool

	// What the steps of a pass hand on to the next ones.
	record *record
	// inventoryLost is set when the status was rebuilt from the record.
	inventoryLost bool
	in            resolved
	newRevision   bool
	target        *target
	engine        *apply.Engine
	local         client.Client
	objects       []client.Object
	applied       apply.Result
}

// after asks for the next pass after d at the latest.
func (p *pass[T]) after(d time.Duration) {
	if d <= 0 {
		d = time.Millisecond
	}
	if p.requeue == 0 || d < p.requeue {
		p.requeue = d
	}
}

// setState sets the state and the Ready condition.
func (p *pass[T]) setState(state componentv1alpha1.State, reason, message string) {
	p.status.State = state
	ready := metav1.ConditionFalse
	if state == componentv1alpha1.StateReady {
		ready = metav1.ConditionTrue
	}
	meta.SetStatusCondition(&p.status.Conditions, metav1.Condition{
		Type:               componentv1alpha1.ConditionReady,
		Status:             ready,
		Reason:             reason,
		Message:            status.Truncate(message, status.MaxMessage),
		ObservedGeneration: p.comp.GetGeneration(),
		LastTransitionTime: metav1.NewTime(p.now),
	})
}

// keepReportedFailure restores the state and Ready condition the
// component had before the pass when they report a failure of its current
// generation (reason Retrying, Error, Timeout or DeletionRetrying; not a
// suspended component), and reports whether they did.
func (p *pass[T]) keepReportedFailure() bool {
	orig := p.orig.GetStatus()
	ready := orig.ReadyCondition()
	if ready == nil || ready.ObservedGeneration != p.comp.GetGeneration() {
		return false
	}
	switch ready.Reason {
	case componentv1alpha1.ReasonRetrying, componentv1alpha1.ReasonError, componentv1alpha1.ReasonTimeout, componentv1alpha1.ReasonDeletionRetrying:
	default:
		return false
	}
	p.status.State = orig.State
	meta.SetStatusCondition(&p.status.Conditions, *ready.DeepCopy())
	return true
}

// reasonOf returns the reason of the Ready condition, "" without one.
func reasonOf(s *componentv1alpha1.Status) string {
	if c := s.ReadyCondition(); c != nil {
		return c.Reason
	}
	return ""
}

// messageOf returns the message of the Ready condition, "" without one.
func messageOf(s *componentv1alpha1.Status) string {
	if c := s.ReadyCondition(); c != nil {
		return c.Message
	}
	return ""
}
