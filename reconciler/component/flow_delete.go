package component

import (
	"context"
	"fmt"
	"slices"
	"strings"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
)

// deletePass is the deletion branch of a pass.
func (r *Reconciler[T]) deletePass(ctx context.Context, p *pass[T]) {
	st := p.status
	st.ProcessingDigest, st.ProcessingSince = "", nil
	if !slices.Contains(p.comp.GetFinalizers(), r.opts.Finalizer) {
		// Not ours (any more): nothing to delete, no status to keep.
		p.gone = true
		return
	}
	if _, err := r.resolve(ctx, p.comp, true); err != nil {
		r.fail(p, err, true)
		return
	}
	tgt, local, err := r.clients(p.comp)
	if err != nil {
		r.fail(p, err, true)
		return
	}
	ctx = withClients(ctx, tgt.client, local)
	if err := r.hooks.run(ctx, preDelete, r.client, p.comp); err != nil {
		r.fail(p, err, true)
		return
	}
	eng, err := r.engine(tgt, p.comp)
	if err != nil {
		r.fail(p, err, true)
		return
	}
	allowed, why, err := eng.IsDeletionAllowed(ctx, &st.Inventory)
	if err != nil {
		r.fail(p, err, true)
		return
	}
	if !allowed {
		p.setState(componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked, "deletion blocked: "+why)
		p.after(r.backoff.next(p.key, p.retryInterval))
		return
	}
	if foreign := slices.DeleteFunc(slices.Clone(p.comp.GetFinalizers()), func(f string) bool { return f == r.opts.Finalizer }); len(foreign) > 0 {
		// Their removal is a watched change of the component.
		p.setState(componentv1alpha1.StateDeletionPending, componentv1alpha1.ReasonDeletionBlocked,
			"deletion blocked by other finalizers: "+strings.Join(foreign, ", "))
		return
	}
	res, err := eng.Delete(ctx, &st.Inventory, apply.PassOptions{Owner: apply.Owner{ID: ownerID(p.key)}})
	if err != nil {
		r.fail(p, err, true)
		return
	}
	if !res.Done {
		p.setState(componentv1alpha1.StateDeleting, componentv1alpha1.ReasonDeletionProcessing,
			fmt.Sprintf("deleting dependent objects: %d left", len(st.Inventory.Items)))
		p.after(r.backoff.next(p.key, p.retryInterval))
		return
	}
	if err := r.hooks.run(ctx, postDelete, r.client, p.comp); err != nil {
		r.fail(p, err, true)
		return
	}
	if err := r.patchFinalizer(ctx, p.comp, false); err != nil {
		r.fail(p, err, true)
		return
	}
	p.gone = true
}
