package component

import (
	"context"
	"fmt"
	"slices"
	"strings"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
)

// deletePass is the deletion branch of a pass, as named steps run in
// order; a step that settles the pass ends it.
func (r *Reconciler[T]) deletePass(ctx context.Context, p *pass[T]) {
	for _, step := range []func(context.Context, *pass[T]) bool{
		r.startDeletion,  // ours to delete, references, clients, pre-delete hooks
		r.checkDeletion,  // foreign instances of managed types, foreign finalizers
		r.deleteObjects,  // the object engine's delete waves
		r.finishDeletion, // post-delete hooks, the finalizer's removal
	} {
		if !step(ctx, p) {
			return
		}
	}
}

// startDeletion ends the cycle, checks that the finalizer is the
// reconciler's, resolves the references (whose absence does not block a
// deletion), builds the clients and runs the pre-delete hooks.
func (r *Reconciler[T]) startDeletion(ctx context.Context, p *pass[T]) bool {
	st := p.status
	st.ProcessingDigest, st.ProcessingSince = "", nil
	if !slices.Contains(p.comp.GetFinalizers(), r.opts.Finalizer) {
		// Not ours (any more): nothing to delete, no status to keep.
		p.gone = true
		return false
	}
	if _, err := r.resolve(ctx, p.comp, true); err != nil {
		r.fail(p, err)
		return false
	}
	tgt, local, err := r.clients(p.comp)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.target, p.local = tgt, local
	if err := r.hooks.run(withClients(ctx, tgt.client, local), preDelete, r.client, p.comp); err != nil {
		r.fail(p, err)
		return false
	}
	return true
}

// checkDeletion blocks the deletion while foreign instances of the types
// the component manages exist, or while other finalizers remain.
func (r *Reconciler[T]) checkDeletion(ctx context.Context, p *pass[T]) bool {
	eng, err := r.engine(p.target, p.comp, true)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.engine = eng
	allowed, why, err := eng.IsDeletionAllowed(withClients(ctx, p.target.client, p.local), &p.status.Inventory)
	if err != nil {
		r.fail(p, err)
		return false
	}
	if !allowed {
		p.setState(componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked, "deletion blocked: "+why)
		p.after(r.backoff.next(p.key, p.retryInterval))
		return false
	}
	if foreign := slices.DeleteFunc(slices.Clone(p.comp.GetFinalizers()), func(f string) bool { return f == r.opts.Finalizer }); len(foreign) > 0 {
		// Their removal is a watched change of the component.
		p.setState(componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked,
			"deletion blocked by other finalizers: "+strings.Join(foreign, ", "))
		return false
	}
	return true
}

// deleteObjects deletes the dependent objects in delete waves, Deleting
// until they are gone.
func (r *Reconciler[T]) deleteObjects(ctx context.Context, p *pass[T]) bool {
	res, err := p.engine.Delete(withClients(ctx, p.target.client, p.local), &p.status.Inventory, apply.PassOptions{Owner: apply.Owner{ID: ownerID(p.key)}})
	if err != nil {
		r.fail(p, err)
		return false
	}
	if !res.Done {
		p.setState(componentv1alpha1.StateDeleting, componentv1alpha1.ReasonDeletionProcessing,
			fmt.Sprintf("deleting dependent objects: %d left", len(p.status.Inventory.Items)))
		p.after(r.backoff.next(p.key, p.retryInterval))
		return false
	}
	return true
}

// finishDeletion runs the post-delete hooks and removes the finalizer.
func (r *Reconciler[T]) finishDeletion(ctx context.Context, p *pass[T]) bool {
	if err := r.hooks.run(withClients(ctx, p.target.client, p.local), postDelete, r.client, p.comp); err != nil {
		r.fail(p, err)
		return false
	}
	if err := r.patchFinalizer(ctx, p.comp, false); err != nil {
		r.fail(p, err)
		return false
	}
	p.gone = true
	return true
}
