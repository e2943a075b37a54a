package reconciler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
)

// Reconcile runs one pass for the cluster resource named by req:
//
//  1. read it; gone or being deleted: done (its objects carry controller
//     owner references, so garbage collection removes them; the reconciler
//     keeps no finalizer);
//  2. paused (spec.clusterOperation.reconciliationPaused): observe only;
//  3. the cluster-wide objects (ServiceAccount, workload RBAC, the
//     product's cluster objects), the cluster's pre-reconcile hooks and the
//     declared dependencies (a missing one stops the pass);
//  4. the role catalog, checked against spec.roles, then every role and
//     role group in sorted order, best effort, each group's objects
//     applied in waves with its own inventory;
//  5. the orphan cleanup of role groups removed from the spec, the health
//     of the workloads and the cluster's post-reconcile hooks;
//  6. the status, written only when it changed, and the next pass
//     scheduled.
//
// A panic becomes an error and a ReconcilePanic event.
func (r *Reconciler[CR]) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, retErr error) {
	if r.engine == nil {
		return ctrl.Result{}, errors.New("product reconciler: SetupWithManager was not called")
	}
	unlock := r.serial.Lock(req.NamespacedName)
	defer unlock()
	start := r.cfg.Clock.Now()
	// controller-runtime's logger already names the resource.
	log := logr.FromContextOrDiscard(ctx)

	cr := r.cfg.For.DeepCopy()
	if err := r.client.Get(ctx, req.NamespacedName, cr); err != nil {
		if apierrors.IsNotFound(err) {
			r.forget(req.NamespacedName)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, apierr.Classify(err)
	}
	if cr.GetDeletionTimestamp() != nil {
		log.V(1).Info("being deleted; garbage collection removes its objects")
		r.fresh.Forget(req.NamespacedName)
		return ctrl.Result{}, nil
	}
	if r.fresh.Stale(req.NamespacedName, cr.GetUID(), cr.GetResourceVersion()) {
		// The cache has not seen this reconciler's last status write; the
		// watch event of that write triggers the next pass.
		log.V(1).Info("cached copy predates the last status write; waiting for the cache")
		return ctrl.Result{RequeueAfter: staleCacheDelay}, nil
	}
	var passErr error
	defer func() {
		if v := recover(); v != nil {
			pv := observe.Recovered(v)
			retErr = fmt.Errorf("reconcile panicked: %v", pv)
			log.Error(retErr, "panic", "stack", string(pv.Stack))
			r.recorder.Eventf(cr, nil, corev1.EventTypeWarning, ReasonReconcilePanic, "Reconcile", "%v", pv)
			res = ctrl.Result{}
		}
		observed := retErr
		if observed == nil {
			observed = passErr
		}
		r.metrics.observe(r.kind, observed, r.cfg.Clock.Since(start))
	}()

	orig := cr.DeepCopy()
	if op := cr.GetClusterSpec().ClusterOperation; op != nil && op.ReconciliationPaused {
		setCondition(cr, start, commonsv1alpha1.ConditionPaused, metav1.ConditionTrue, ReasonPaused,
			"spec.clusterOperation.reconciliationPaused is set: nothing is changed until it is cleared")
		return ctrl.Result{}, r.writeStatus(ctx, orig, cr)
	}
	p := newPass(log, start)
	r.run(ctx, p, cr)
	passErr = p.err()
	return r.finish(ctx, p, orig, cr)
}

// staleCacheDelay is how soon a pass that found a stale cached copy runs
// again, should the watch event it waits for be lost.
const staleCacheDelay = time.Second

// run is steps 3 to 5.
func (r *Reconciler[CR]) run(ctx context.Context, p *pass, cr CR) {
	if err := r.reconcileCluster(ctx, p, cr); err != nil {
		p.fail("cluster objects", err)
		if p.rateLimited() {
			return
		}
	}
	if err := r.hooks(p).clusterPre(ctx, cr); err != nil {
		p.fail("pre-reconcile", err)
		return
	}
	if err := r.checkDependencies(ctx, cr); err != nil {
		p.warn(ReasonDependencyMissing, "%s", message(err))
		p.fail("dependencies", err)
		return
	}
	catalog, complete, err := r.declareRoles(ctx, p, cr)
	if err != nil {
		p.fail("", err)
		return
	}
	aggregator := r.discoverAggregator(ctx, p, cr)
	targets := r.reconcileRoles(ctx, p, cr, catalog, aggregator)
	if p.rateLimited() {
		return
	}
	if complete {
		// With a role name the catalog does not know, a renamed role would
		// look removed: delete nothing until the spec is right again.
		r.retireRoles(ctx, p, cr)
		r.cleanOrphans(ctx, p, cr)
		if p.rateLimited() {
			return
		}
	}
	r.checkHealth(ctx, p, cr, targets)
	if err := r.hooks(p).clusterPost(ctx, cr); err != nil {
		p.fail("post-reconcile", err)
	}
}

// finish turns the pass into conditions, events, the status write and the
// result.
func (r *Reconciler[CR]) finish(ctx context.Context, p *pass, orig, cr CR) (ctrl.Result, error) {
	err := p.err()
	class := failure.ClassOf(err)
	if err != nil {
		r.cfg.Hooks.clusterError(ctx, cr, err)
	}
	if class != failure.ClassRateLimited {
		r.setConditions(p, cr, err, class)
	}
	cr.GetClusterStatus().ObservedGeneration = cr.GetGeneration()
	r.recordEvents(p, cr, err, class)
	key := client.ObjectKeyFromObject(cr)
	changed := !equality.Semantic.DeepEqual(orig, cr)
	progress := changed && !p.settled && progressOnly(orig, cr)
	if progress {
		if held, wait := r.pace.hold(key, p.now, r.cfg.ProgressInterval); held {
			// Written with the next change that matters, after wait, or
			// (the shared budget spent) with a later pass; a settled pass
			// writes its final state at once.
			if wait > 0 {
				p.wakeAfter(wait)
			}
			return r.result(p, err)
		}
	}
	if changed {
		if werr := r.writeStatus(ctx, orig, cr); werr != nil {
			if failure.ClassOf(werr) == failure.ClassRetriable {
				return ctrl.Result{RequeueAfter: time.Second}, nil
			}
			return ctrl.Result{}, werr
		}
		r.pace.wrote(key, p.now, progress)
	}
	return r.result(p, err)
}

// result schedules the next pass from every failure of the pass, not
// only the one its conditions report: a rate limit waits out its longest
// Retry-After; an unclassified or transient failure without a delay goes
// to controller-runtime's backoff, even beside a wait or invalid input in
// another role group; a wait or a transient failure with a delay comes
// back after the shortest delay; invalid input waits for the user (a spec
// change triggers a pass) with the health interval as a safety net, never
// a hot retry. Otherwise the earliest of the health interval, the orphan
// cleaner's wake-up and, while converging, the progress interval.
func (r *Reconciler[CR]) result(p *pass, err error) (ctrl.Result, error) {
	rt := failure.RetryOf(err)
	if rt.Backoff {
		return ctrl.Result{}, err
	}
	if rt.Wait {
		p.wakeAfter(max(rt.After, time.Second))
	}
	if !p.settled {
		p.wakeAfter(r.cfg.ProgressInterval)
	}
	if r.cfg.HealthCheckInterval > 0 {
		p.wakeAfter(r.cfg.HealthCheckInterval)
	}
	return ctrl.Result{RequeueAfter: p.requeue}, nil
}

// forget drops what the reconciler keeps per cluster resource once it is
// gone: its stale-copy record and the cleaner's metric series.
func (r *Reconciler[CR]) forget(key types.NamespacedName) {
	r.fresh.Forget(key)
	r.pace.forget(key)
	gone := r.cfg.For.DeepCopy()
	gone.SetNamespace(key.Namespace)
	gone.SetName(key.Name)
	_ = r.cleaner.Forget(gone)
}

// hooks returns the product's hooks, or none for a plan: hooks are the
// operator's code and may write.
func (r *Reconciler[CR]) hooks(p *pass) *Hooks[CR] {
	if p.planning != nil {
		return nil
	}
	return r.cfg.Hooks
}
