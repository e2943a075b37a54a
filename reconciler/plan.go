package reconciler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// Plan is what the next passes over a cluster resource would do,
// computed without writing anything.
type Plan struct {
	// Resource names the cluster resource planned.
	Resource types.NamespacedName
	// Exists is false for a resource not created yet: every object is
	// then a create.
	Exists bool
	// Paused is set when spec.clusterOperation.reconciliationPaused is:
	// a pass changes nothing, and Scopes is empty.
	Paused bool
	// Deleting is set when the live resource is being deleted: garbage
	// collection removes its objects, a pass changes nothing, and Scopes
	// is empty.
	Deleting bool
	// Scopes are the object engine's plans, one per scope: the cluster's
	// objects (Role and RoleGroup empty), a role's objects (RoleGroup
	// empty), a role group's; sorted by role, then group. A role removed
	// from the spec plans the deletes of its objects.
	Scopes []ScopePlan
	// Retired lists the role groups removed from the spec that the orphan
	// cleaner would retire, each with the stage its next step reaches and
	// the actions of that step (dry runs).
	Retired []orphan.GroupReport
	// Conditions are the conditions the pass would set once the planned
	// writes are made, sorted by type: while writes are planned the
	// cluster is taken as rolling out.
	Conditions []metav1.Condition
	// Events are the events the pass would record (Warnings first).
	Events []PlannedEvent
}

// ScopePlan is the plan of one scope's objects.
type ScopePlan struct {
	// Role and RoleGroup name the scope; both empty for the cluster's own
	// objects (ServiceAccount, RBAC, the product's cluster objects).
	Role, RoleGroup string
	// Objects is what the object engine would do with them.
	Objects apply.Plan

	rendered []client.Object // the objects themselves, for Render
}

// PlannedEvent is an event a pass would record on the resource.
type PlannedEvent struct {
	// Type is corev1.EventTypeNormal or corev1.EventTypeWarning.
	Type string
	// Reason and Message are the event's.
	Reason, Message string
}

// HasChanges reports whether the passes would write anything: an object
// of a scope, or a step of a removed role group's retirement.
func (p Plan) HasChanges() bool {
	for _, s := range p.Scopes {
		if s.Objects.HasChanges() {
			return true
		}
	}
	return slices.ContainsFunc(p.Retired, func(g orphan.GroupReport) bool { return g.Stage != orphan.StageReclaimed })
}

// planUID stands for the UID of a resource not created yet: the objects'
// owner references need one for their dry runs.
const planUID = "00000000-0000-0000-0000-00000000a11d"

// Plan tells what the next passes would do for cr, writing nothing: cr
// as it is in the cluster, or as its author is about to write it (a
// local file). The resource's status (its inventories and role-group
// ledger) is read from the cluster by cr's namespace and name, so a spec
// from a file plans against what the reconciler did before.
//
// It runs the steps of a pass with every write replaced: each scope's
// objects are planned by the object engine (apply.Engine.Plan, server-side
// dry runs, deletes in the order the pass deletes them), the orphan
// cleaner's next step for removed role groups is dry-run, and the
// conditions and events are computed but neither written nor recorded.
// Hooks do not run: they are the operator's code and may write. A
// resource being deleted plans to nothing (Plan.Deleting: garbage
// collection removes its objects); one in a namespace the operator does
// not manage (Config.Namespaces) is refused as the user's invalid input
// naming metadata.namespace. A plan reads what the pass reads, from the
// manager's cache: it waits until the cache has started and synced, so
// the manager must be running (or about to be), and ctx bounds the wait.
// The error
// joins every failure the pass would meet (invalid input, a missing
// dependency) and every failure of the plan itself (a refused dry run,
// as an *apply.DryRunError): a plan with an error is not complete.
func (r *Reconciler[CR]) Plan(ctx context.Context, cr CR) (Plan, error) {
	switch {
	case r.engine == nil:
		return Plan{}, errors.New("product reconciler: SetupWithManager was not called")
	case r.offline:
		return Plan{}, errors.New("product reconciler: set up offline: a plan needs a cluster (SetupForPlanning)")
	}
	planned, out, err := r.planTarget(ctx, cr)
	if err != nil || out.Deleting {
		return out, err
	}
	now := r.cfg.Clock.Now()
	if op := planned.GetClusterSpec().ClusterOperation; op != nil && op.ReconciliationPaused {
		out.Paused = true
		setCondition(planned, now, commonsv1alpha1.ConditionPaused, metav1.ConditionTrue, ReasonPaused,
			"spec.clusterOperation.reconciliationPaused is set: nothing is changed until it is cleared")
		out.Conditions = sortedConditions(planned)
		return out, nil
	}
	p := newPass(logr.FromContextOrDiscard(ctx), now)
	p.planning = &planLog{}
	r.run(ctx, p, planned)
	err = p.err()
	if class := failure.ClassOf(err); class != failure.ClassRateLimited {
		r.setConditions(p, planned, err, class)
	}
	out.Scopes, out.Retired = p.planning.sorted()
	out.Conditions = sortedConditions(planned)
	for _, w := range p.warnings {
		out.Events = append(out.Events, PlannedEvent{Type: corev1.EventTypeWarning, Reason: w.reason, Message: w.message})
	}
	for _, n := range p.normals {
		out.Events = append(out.Events, PlannedEvent{Type: corev1.EventTypeNormal, Reason: n.reason, Message: n.message})
	}
	return out, err
}

// planTarget returns a copy of cr with the live resource's identity and
// status, or, for a resource not created yet, an empty status and a
// stand-in UID. It first waits for the manager's cache, which the pass
// reads from, to start and sync.
func (r *Reconciler[CR]) planTarget(ctx context.Context, cr CR) (CR, Plan, error) {
	key := client.ObjectKeyFromObject(cr)
	out := Plan{Resource: key}
	if r.synced != nil && !r.synced(ctx) {
		return cr, out, fmt.Errorf("product reconciler: the manager's cache had not started and synced when the context ended: %w", context.Cause(ctx))
	}
	if ns := r.cfg.Namespaces; len(ns) > 0 && !slices.Contains(ns, key.Namespace) {
		return cr, out, failure.Invalid(failure.AuthorUser, "metadata.namespace",
			"%s %s is in a namespace this operator does not manage (it manages %s)", r.kind, key, strings.Join(ns, ", "))
	}
	planned := cr.DeepCopy()
	live := r.cfg.For.DeepCopy()
	switch err := r.apiReader.Get(ctx, key, live); {
	case apierrors.IsNotFound(err):
		*planned.GetClusterStatus() = commonsv1alpha1.ClusterStatus{}
		planned.SetUID(planUID)
		shardgate.TakeOwner(planned, live) // none yet
	case err != nil:
		return planned, out, apierr.Classify(fmt.Errorf("reading %s %s: %w", r.kind, key, err))
	default:
		out.Exists = true
		out.Deleting = live.GetDeletionTimestamp() != nil
		*planned.GetClusterStatus() = *live.GetClusterStatus().DeepCopy()
		planned.SetUID(cmp.Or(live.GetUID(), planUID)) // a copy held in memory may have none
		shardgate.TakeOwner(planned, live)
		planned.SetGeneration(live.GetGeneration())
	}
	return planned, out, nil
}

// planScope is applyScope for a plan: the engine plans objs instead of
// applying them, on a copy of inv. The scope counts as done only when
// nothing would change.
func (r *Reconciler[CR]) planScope(ctx context.Context, p *pass, cr CR, ownerID string, inv *inventory.Inventory,
	objs []client.Object, release func(inventory.Ref) bool) (bool, error) {
	for _, o := range objs {
		if err := controllerutil.SetControllerReference(cr, o, r.scheme); err != nil {
			return false, err
		}
	}
	scope := ScopePlan{}
	if rest, ok := strings.CutPrefix(ownerID, string(cr.GetUID())+"/"); ok {
		scope.Role, scope.RoleGroup, _ = strings.Cut(rest, "/")
	}
	if p.planning.render {
		// Every scope is shown: taken as done, the pass goes on to
		// the scopes an ordered rollout reaches later.
		scope.rendered = objs
		p.planning.add(scope)
		return true, nil
	}
	plan, err := r.engine.Plan(ctx, inv, objs, apply.PassOptions{
		Owner:   apply.Owner{ID: ownerID, DefaultNamespace: cr.GetNamespace()},
		Release: release,
	})
	scope.Objects = plan
	p.planning.add(scope)
	done := err == nil && !plan.HasChanges()
	if !done {
		p.unsettle()
	}
	return done, err
}

// planLog gathers the plans of the scopes, which role groups make
// concurrently.
type planLog struct {
	render  bool // Render: keep the objects, plan nothing
	mu      sync.Mutex
	scopes  []ScopePlan
	retired []orphan.GroupReport
}

func (l *planLog) add(s ScopePlan) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.scopes = append(l.scopes, s)
}

func (l *planLog) retire(groups []orphan.GroupReport) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.retired = append(l.retired, groups...)
}

// sorted returns the scopes by role and group, and the retired groups.
func (l *planLog) sorted() ([]ScopePlan, []orphan.GroupReport) {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.SortStableFunc(l.scopes, func(a, b ScopePlan) int {
		return cmp.Or(cmp.Compare(a.Role, b.Role), cmp.Compare(a.RoleGroup, b.RoleGroup))
	})
	return l.scopes, l.retired
}

// sortedConditions returns cr's conditions sorted by type.
func sortedConditions(cr Cluster) []metav1.Condition {
	out := slices.Clone(cr.GetClusterStatus().Conditions)
	slices.SortFunc(out, func(a, b metav1.Condition) int { return cmp.Compare(a.Type, b.Type) })
	return out
}
