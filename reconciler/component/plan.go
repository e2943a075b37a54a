package component

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// Plan is what the next passes over a component would do, computed
// without writing anything.
type Plan struct {
	// Component names the component planned.
	Component types.NamespacedName
	// Exists is false for a component not created yet: every object is
	// then a create.
	Exists bool
	// Revision is the revision the objects are rendered as; NewRevision
	// is set when the inputs changed since the last render, so the pass
	// would count a new revision.
	Revision    int64
	NewRevision bool
	// Objects is the object engine's plan of the rendered objects, in
	// apply order (waves; a hook is an object with a purge order, planned
	// as Transient), then the objects leaving the inventory in delete
	// order. For a component being deleted (or PlanDelete) it lists the
	// deletes alone.
	Objects apply.Plan
	// Warnings are the generator's warnings while rendering.
	Warnings []generators.Warning
	// State and Ready are the state and the Ready condition the passes
	// would leave once the planned writes are made: Ready when nothing
	// changes and every object is ready, Processing while writes are
	// planned or objects are not ready, Pending when suspended.
	State componentv1alpha1.State
	// Ready is the Ready condition the passes would set.
	Ready metav1.Condition
}

// HasChanges reports whether the passes would write anything.
func (p Plan) HasChanges() bool { return p.Objects.HasChanges() }

// Plan tells what the next passes would do for comp, writing nothing:
// comp as it is in the cluster, or as its author is about to write it (a
// local file). The component's status (inventory, revision, render
// record) is read from the cluster by comp's namespace and name, so a
// spec read from a file plans against what the reconciler did before.
//
// It runs the steps of a pass without their writes: the references are
// resolved and the objects rendered (the recorded render is reused when
// the inputs did not change, so a deterministic generator plans a
// converged component to no changes), then planned by the object engine
// (apply.Engine.Plan, server-side dry runs). Hooks do not run: they are
// the operator's code and may write. A component being deleted plans its
// deletion; one in a namespace the operator does not manage
// (Options.Namespaces) is refused as the user's invalid input naming
// metadata.namespace. A plan reads what the pass reads, from the
// manager's cache: it waits until the cache has started and synced, so
// the manager must be running (or about to be), and ctx bounds the wait.
// The error joins every failure (references, the render, a
// refused dry run): a plan with an error is not complete.
func (r *Reconciler[T]) Plan(ctx context.Context, comp T) (Plan, error) {
	if err := r.online(); err != nil {
		return Plan{}, err
	}
	p, out, err := r.planPass(ctx, comp)
	if err != nil || p == nil {
		return out, err
	}
	if p.deleting {
		return r.planDeletion(ctx, p, out)
	}
	return r.planApply(ctx, p, out)
}

// PlanDelete tells what deleting comp would do to its objects, writing
// nothing: the deletes in delete order, as apply.Engine.PlanDelete says.
func (r *Reconciler[T]) PlanDelete(ctx context.Context, comp T) (Plan, error) {
	if err := r.online(); err != nil {
		return Plan{}, err
	}
	p, out, err := r.planPass(ctx, comp)
	if err != nil || p == nil {
		return out, err
	}
	return r.planDeletion(ctx, p, out)
}

// online refuses a plan on a reconciler set up offline: its dry runs need
// an API server.
func (r *Reconciler[T]) online() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.offline {
		return errors.New("component reconciler: set up offline: a plan needs a cluster (SetupForPlanning)")
	}
	return nil
}

// planPass starts the pass a plan follows: comp with the live
// component's identity and status, once the manager's cache, which the
// pass reads from, has started and synced. A nil pass means the plan is out
// already (the component is suspended).
func (r *Reconciler[T]) planPass(ctx context.Context, comp T) (*pass[T], Plan, error) {
	r.mu.Lock()
	ready, synced := r.ready || r.planOnly || r.offline, r.synced
	r.mu.Unlock()
	if !ready {
		return nil, Plan{}, errors.New("component reconciler: none of SetupWithManager, SetupForPlanning and SetupOffline was called")
	}
	key := client.ObjectKeyFromObject(comp)
	out := Plan{Component: key}
	if synced != nil && !synced(ctx) {
		return nil, out, fmt.Errorf("component reconciler: the manager's cache had not started and synced when the context ended: %w", context.Cause(ctx))
	}
	if ns := r.opts.Namespaces; len(ns) > 0 && !slices.Contains(ns, key.Namespace) {
		return nil, out, failure.Invalid(failure.AuthorUser, "metadata.namespace",
			"%s %s is in a namespace this operator does not manage (it manages %s)", r.gvk.Kind, key, strings.Join(ns, ", "))
	}
	planned, ok := comp.DeepCopyObject().(T)
	if !ok {
		return nil, out, fmt.Errorf("%T does not copy to itself", comp)
	}
	live, _ := newObject[T]()
	switch err := r.apiReader.Get(ctx, key, live); {
	case apierrors.IsNotFound(err):
		*planned.GetStatus() = componentv1alpha1.Status{}
		planned.SetUID("")
		shardgate.TakeOwner(planned, live) // none yet
	case err != nil:
		return nil, out, apierr.Classify(fmt.Errorf("reading component %s: %w", key, err))
	default:
		out.Exists = true
		*planned.GetStatus() = *live.GetStatus().DeepCopy()
		planned.SetUID(live.GetUID())
		planned.SetGeneration(live.GetGeneration())
		planned.SetFinalizers(live.GetFinalizers())
		planned.SetDeletionTimestamp(live.GetDeletionTimestamp())
		shardgate.TakeOwner(planned, live)
	}
	p := r.newPass(ctx, key, planned)
	p.deleting = !planned.GetDeletionTimestamp().IsZero()
	tgt, local, err := r.clients(planned)
	if err != nil {
		return nil, out, err
	}
	p.target, p.local = tgt, local
	if p.deleting {
		return p, out, nil
	}
	if s, ok := configuration[SuspensionConfiguration](planned); ok && s.IsSuspended() {
		p.setState(componentv1alpha1.StatePending, componentv1alpha1.ReasonSuspended, "suspended: the dependent objects are kept as they are")
		return nil, withState(out, p), nil
	}
	return p, out, nil
}

// planApply plans the create/update branch of a pass.
func (r *Reconciler[T]) planApply(ctx context.Context, p *pass[T], out Plan) (Plan, error) {
	st := p.status
	if err := r.planRender(ctx, p, &out); err != nil {
		return out, err
	}
	ctx = withClients(ctx, p.target.client, p.local)
	eng, err := r.engine(p.target, p.comp, false)
	if err != nil {
		return out, err
	}
	ns, _ := placement(p.comp)
	owner := apply.Owner{ID: ownerID(p.key), DefaultNamespace: ns, ComponentDigest: p.in.digest}
	shardgate.Follow(shardgate.OwnerLabels(p.comp), p.objects)
	out.Objects, err = eng.Plan(ctx, &st.Inventory, p.objects, apply.PassOptions{Owner: owner})
	if err != nil {
		return out, err
	}
	switch {
	case out.Objects.HasChanges():
		p.setState(componentv1alpha1.StateProcessing, componentv1alpha1.ReasonProcessing, planSummary(out.Objects))
	case unready(&st.Inventory) != "none":
		p.setState(componentv1alpha1.StateProcessing, componentv1alpha1.ReasonProcessing,
			"waiting for dependent objects to become ready: "+unready(&st.Inventory))
	default:
		p.setState(componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, "every dependent object is applied and ready")
	}
	return withState(out, p), nil
}

// planRender resolves the references and renders the objects into
// p.objects, as the pass would: the recorded render when the inputs did
// not change since it was made, else the generator's.
func (r *Reconciler[T]) planRender(ctx context.Context, p *pass[T], out *Plan) error {
	st := p.status
	rec, err := r.records.get(ctx, p.key, p.comp)
	if err != nil {
		return err
	}
	if p.in, err = r.resolve(ctx, p.comp, false); err != nil {
		return err
	}
	if rec != nil && rec.revision > st.Revision {
		st.Revision, st.LastProcessingDigest = rec.revision, rec.digest
	}
	out.NewRevision = p.in.digest != st.LastProcessingDigest
	if out.NewRevision {
		st.Revision++
	}
	out.Revision = st.Revision
	ctx = withClients(ctx, p.target.client, p.local)
	var recorded bool
	if p.objects, recorded = rec.reuse(p.in.digest, st.Revision); !recorded {
		if p.objects, err = r.generate(ctx, p, func(w generators.Warning) { out.Warnings = append(out.Warnings, w) }); err != nil {
			return err
		}
	}
	return r.checkKinds(p.objects)
}

// planDeletion plans the deletion of the component's objects.
func (r *Reconciler[T]) planDeletion(ctx context.Context, p *pass[T], out Plan) (Plan, error) {
	eng, err := r.engine(p.target, p.comp, false)
	if err != nil {
		return out, err
	}
	ctx = withClients(ctx, p.target.client, p.local)
	out.Objects, err = eng.PlanDelete(ctx, &p.status.Inventory, apply.PassOptions{Owner: apply.Owner{ID: ownerID(p.key)}})
	if err != nil {
		return out, err
	}
	p.setState(componentv1alpha1.StateDeleting, componentv1alpha1.ReasonDeletionProcessing, planSummary(out.Objects))
	return withState(out, p), nil
}

// withState copies the state the pass set into the plan.
func withState[T Component](out Plan, p *pass[T]) Plan {
	out.State = p.status.State
	if c := meta.FindStatusCondition(p.status.Conditions, componentv1alpha1.ConditionReady); c != nil {
		out.Ready = *c
	}
	return out
}

// planSummary counts the planned changes by action, in a fixed order:
// "planned: 2 create, 1 update, 1 delete".
func planSummary(plan apply.Plan) string {
	var parts []string
	for _, a := range []apply.PlanAction{apply.PlanCreate, apply.PlanUpdate, apply.PlanRecreate, apply.PlanDelete,
		apply.PlanOrphan, apply.PlanRelease, apply.PlanBlocked} {
		if n := plan.Count(a); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(parts) == 0 {
		return "planned: no changes"
	}
	return "planned: " + strings.Join(parts, ", ")
}
