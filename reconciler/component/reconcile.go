package component

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

// Timings of the passes that follow a pass at once.
const (
	// requeueNow follows a pass that only recorded a step (a restarted
	// cycle).
	requeueNow = 10 * time.Millisecond
	// staleCacheDelay is how soon a pass that found a stale cached copy
	// runs again, should the watch event it waits for be lost.
	staleCacheDelay = time.Second
)

// Reconcile runs one pass for the component named by req:
//
//  1. read it from the cache; gone: forget it. A cached copy older than
//     the reconciler's own last write waits for the cache instead;
//  2. put the finalizer on it, run the post-read hooks;
//  3. not being deleted: resolve its references, compute its digest,
//     start a new processing cycle when the digest changed (counting the
//     revision), render its objects and apply them; state Ready once every
//     object is ready, Processing while waiting (Error with reason Timeout
//     past the timeout);
//  4. being deleted: wait for foreign finalizers and foreign instances of
//     its managed types, then delete its objects in delete waves and
//     remove the finalizer once they are gone;
//  5. write the status when it changed, record an event when the state
//     did, and schedule the next pass.
//
// Failures are data: a transient one is state Pending (reason Retrying)
// retried after its delay, invalid input is state Error until the
// component changes, anything else state Error with a jittered backoff.
// Reconcile returns an error only for a panic.
func (r *Reconciler[T]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, retErr error) {
	r.mu.Lock()
	ready := r.ready
	r.mu.Unlock()
	if !ready {
		return ctrl.Result{}, errors.New("component reconciler: SetupWithManager was not called")
	}
	unlock := r.serial.Lock(req.NamespacedName)
	defer unlock()
	// controller-runtime's logger already names the component.
	log := logr.FromContextOrDiscard(ctx)

	comp, _ := newObject[T]()
	if err := r.client.Get(ctx, req.NamespacedName, comp); err != nil {
		if apierrors.IsNotFound(err) {
			r.forget(req.NamespacedName)
			r.fresh.Forget(req.NamespacedName)
			return ctrl.Result{}, nil
		}
		log.Error(err, "reading the component")
		return ctrl.Result{RequeueAfter: r.backoff.next(req.NamespacedName, r.opts.RetryInterval)}, nil
	}
	if r.fresh.Stale(req.NamespacedName, comp.GetUID(), comp.GetResourceVersion()) {
		log.V(1).Info("the cached copy predates the reconciler's last write; waiting for the cache")
		return ctrl.Result{RequeueAfter: staleCacheDelay}, nil
	}
	defer func() {
		if v := recover(); v != nil {
			pv := observe.Recovered(v)
			retErr = fmt.Errorf("component pass panicked: %v", pv)
			log.Error(retErr, "panic", "stack", string(pv.Stack))
			res = ctrl.Result{}
		}
	}()
	deleting := !comp.GetDeletionTimestamp().IsZero()
	if !deleting && !controllerutil.ContainsFinalizer(comp, r.opts.Finalizer) {
		// A component without the finalizer is usually new: its render
		// record, which the pass reads next, is read beside the patch.
		// The patch's answer keeps the UID the read is keyed by.
		read := r.records.prefetch(ctx, req.NamespacedName, comp.DeepCopyObject().(T))
		err := r.patchFinalizer(ctx, comp, true)
		read()
		if err != nil {
			log.Error(err, "adding the finalizer")
			return ctrl.Result{RequeueAfter: r.backoff.next(req.NamespacedName, r.opts.RetryInterval)}, nil
		}
	}
	p := r.newPass(ctx, req.NamespacedName, comp)
	p.deleting = deleting
	if err := r.hooks.run(ctx, postRead, r.client, comp); err != nil {
		r.fail(p, err)
	} else if deleting {
		r.deletePass(ctx, p)
	} else {
		r.applyPass(ctx, p)
	}
	return r.finish(ctx, p)
}

// newPass starts the pass of comp, with its intervals.
func (r *Reconciler[T]) newPass(ctx context.Context, key types.NamespacedName, comp T) *pass[T] {
	p := &pass[T]{
		key:             key,
		comp:            comp,
		status:          comp.GetStatus(),
		orig:            comp.DeepCopyObject().(T),
		now:             r.opts.Clock.Now(),
		log:             logr.FromContextOrDiscard(ctx),
		requeueInterval: r.opts.RequeueInterval,
		retryInterval:   r.opts.RetryInterval,
		timeout:         r.opts.Timeout,
	}
	if c, ok := configuration[RequeueConfiguration](comp); ok && c.GetRequeueInterval() > 0 {
		p.requeueInterval = c.GetRequeueInterval()
	}
	if c, ok := configuration[RetryConfiguration](comp); ok && c.GetRetryInterval() > 0 {
		p.retryInterval = c.GetRetryInterval()
	}
	if c, ok := configuration[TimeoutConfiguration](comp); ok && c.GetTimeout() > 0 {
		p.timeout = c.GetTimeout()
	}
	if p.timeout == 0 {
		p.timeout = p.requeueInterval
	}
	return p
}

// fail turns a failure of the pass into the state and the next pass. The
// state follows the most urgent failure; the next pass follows all of
// them (failure.RetryOf), so a server error beside an object that waits
// for its owner, or beside invalid input, is retried with the backoff and
// not after the requeue interval. A pass that met only transient failures
// (server errors, conflicts) while the component already reports a
// failure keeps that report: the lasting cause (an object of another
// owner, say) stays in view while transient errors come and go, and is
// not replaced by an error the next pass is unlikely to meet.
func (r *Reconciler[T]) fail(p *pass[T], err error) {
	p.err = err
	deleting := p.deleting
	st := p.status
	timedOut := !deleting && st.ProcessingSince != nil && p.now.Sub(st.ProcessingSince.Time) >= p.timeout
	msg := err.Error()
	class := failure.ClassOf(err)
	rt := failure.RetryOf(err)
	switch {
	case class == failure.ClassRateLimited:
		// Back off without reporting anything wrong.
		p.log.V(1).Info("rate-limited", "retryAfter", rt.After)
		p.after(max(rt.After, time.Second))
	case rt.Backoff || rt.Wait && rt.After <= 0:
		p.after(r.backoff.next(p.key, p.retryInterval))
	case rt.Wait:
		p.after(rt.After)
	default:
		// Invalid input only: waits for its author, whose change of the
		// component triggers a pass.
		p.after(p.requeueInterval)
	}
	if failure.Transient(err) && p.keepReportedFailure() {
		p.log.Info("transient failure; the state keeps the failure it reports", "error", msg)
		return
	}
	switch class {
	case failure.ClassRateLimited:
	case failure.ClassRetriable, failure.ClassRequeue:
		switch {
		case deleting:
			p.setState(componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionRetrying, msg)
		case timedOut:
			p.setState(componentv1alpha1.StatePending, componentv1alpha1.ReasonTimeout, msg)
		default:
			p.setState(componentv1alpha1.StatePending, componentv1alpha1.ReasonRetrying, msg)
		}
	default:
		p.setState(componentv1alpha1.StateError, reasonFor(timedOut), msg)
	}
}

func reasonFor(timedOut bool) string {
	if timedOut {
		return componentv1alpha1.ReasonTimeout
	}
	return componentv1alpha1.ReasonError
}

// finish writes the status, records events and metrics, and schedules
// the next pass.
func (r *Reconciler[T]) finish(ctx context.Context, p *pass[T]) (ctrl.Result, error) {
	if p.gone {
		r.forget(p.key)
		p.log.Info("dependent objects deleted; finalizer removed")
		return ctrl.Result{}, nil
	}
	p.status.ObservedGeneration = p.comp.GetGeneration()
	if err := r.writeStatus(ctx, p); err != nil {
		p.log.Error(err, "writing the status")
		r.metrics.observe(r.name, p.key.Namespace, p.key.Name, p.orig.GetStatus(), err)
		return ctrl.Result{RequeueAfter: r.backoff.next(p.key, p.retryInterval)}, nil
	}
	r.recordTransition(p)
	r.metrics.observe(r.name, p.key.Namespace, p.key.Name, p.status, p.err)
	return ctrl.Result{RequeueAfter: p.requeue}, nil
}

// patchFinalizer adds or removes the reconciler's finalizer with a patch
// bound to the component's resourceVersion, and remembers the version it
// replaced.
func (r *Reconciler[T]) patchFinalizer(ctx context.Context, comp T, add bool) error {
	before := comp.DeepCopyObject().(T)
	if add {
		controllerutil.AddFinalizer(comp, r.opts.Finalizer)
	} else {
		controllerutil.RemoveFinalizer(comp, r.opts.Finalizer)
	}
	// The patch's answer replaces the object; keep the status this pass
	// may already have changed.
	status := comp.GetStatus().DeepCopy()
	err := r.client.Patch(ctx, comp, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}), client.FieldOwner(r.opts.FieldOwner))
	*comp.GetStatus() = *status
	if err != nil {
		if !add && apierrors.IsNotFound(err) {
			return nil
		}
		return apierr.Classify(fmt.Errorf("updating the finalizers: %w", err))
	}
	r.fresh.Wrote(client.ObjectKeyFromObject(comp), comp.GetUID(), before.GetResourceVersion())
	return nil
}

// forget drops what the reconciler keeps of a component that is gone.
func (r *Reconciler[T]) forget(key types.NamespacedName) {
	r.records.forget(key)
	r.backoff.reset(key)
	r.events.forget(key)
	r.metrics.forget(r.name, key.Namespace, key.Name)
	r.watch.forget(key, r.ownerLabel(key))
}

// ownerLabel returns the value of the owner label of a component's
// objects.
func (r *Reconciler[T]) ownerLabel(key types.NamespacedName) string {
	_, v := apply.OwnerLabel(r.name, ownerID(key))
	return v
}
