package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// Delete brings the cluster one step closer to none of the inventory's
// objects existing: it deletes them in delete waves (delete order, then
// instances of managed types, then kinds in reverse apply priority) and
// removes each item once its object is gone. Objects whose delete policy is
// orphan or orphan-on-delete are only dropped from the inventory, and so
// are those opts.Release releases. Result.Done is set when the inventory is
// empty; call Delete again until then. Once it is done the engine keeps
// nothing of the owner.
func (r *Engine) Delete(ctx context.Context, inv *inventory.Inventory, opts PassOptions) (res Result, err error) {
	p, err := r.newPass(ctx, inv, opts)
	if err != nil {
		return Result{}, err
	}
	defer func() { p.finish(res.Done) }()
	if err := p.adoptStrays(ctx, nil); err != nil {
		return Result{}, err
	}
	p.collectManaged()
	keys := make([]inventory.Key, 0, len(inv.Items))
	for i := range inv.Items {
		it := &inv.Items[i]
		if it.EffectivePhase() != inventory.PhaseDeleting {
			it.SetPhase(inventory.PhaseScheduledForDeletion)
		}
		keys = append(keys, it.Key())
	}
	done := p.deleteItems(ctx, keys, true, &res)
	err = joinChanges(res, nil)
	res.Done = done && err == nil
	return res, err
}

// deleteItems works on the lowest delete wave that still has objects and
// reports whether all the given items are gone.
func (p *pass) deleteItems(ctx context.Context, keys []inventory.Key, onDelete bool, res *Result) bool {
	steps, letGo := p.planDeletes(keys, onDelete, res)
	res.Changes = append(res.Changes, p.letGo(ctx, letGo)...)
	sortForDelete(steps)
	// Namespaces used by an item that stays are deferred.
	used := map[string]bool{}
	for i := range p.inv.Items {
		if k := p.inv.Items[i].Key(); k.Namespace != "" && !p.gone[k] {
			used[k.Namespace] = true
		}
	}
	deferred := false
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j].order == steps[i].order {
			j++
		}
		pending, waveDeferred := p.deleteWave(ctx, steps[i:j], used, res)
		deferred = deferred || waveDeferred
		if pending {
			for _, s := range steps[j:] {
				res.Changes = append(res.Changes, Change{Object: p.item(s.key).Ref(), Action: ActionWaiting})
			}
			return false
		}
		i = j
	}
	return !deferred
}

// planDeletes sorts the items of keys into deletes, and objects let go
// (released to the caller or orphaned by their policy); an item whose
// object was never written is forgotten at once.
func (p *pass) planDeletes(keys []inventory.Key, onDelete bool, res *Result) ([]deleteStep, []keyAction) {
	var (
		steps []deleteStep
		letGo []keyAction
	)
	for _, k := range keys {
		it := p.item(k)
		ref := it.Ref()
		pol := p.deletePolicyOf(it)
		switch {
		case neverWritten(it):
			// Nothing was ever created for it (its wave never came).
			p.forget(k)
			res.Changes = append(res.Changes, Change{Object: ref, Action: ActionDeleted})
			continue
		case p.release != nil && p.release(ref):
			letGo = append(letGo, keyAction{k, ActionReleased})
			continue
		case pol == DeletePolicyOrphan || (pol == DeletePolicyOrphanOnApply && !onDelete) || (pol == DeletePolicyOrphanOnDelete && onDelete):
			letGo = append(letGo, keyAction{k, ActionOrphaned})
			continue
		}
		steps = append(steps, deleteStep{key: k, order: int(it.DeleteOrder), priority: deletePriority(k.GroupKind(), p.isManagedInstance(it))})
	}
	return steps, letGo
}

// deleteWave deletes the objects of one delete wave at once and reports
// whether one of them is still pending (its wave is not done) and whether
// a namespace still in use was deferred.
func (p *pass) deleteWave(ctx context.Context, wave []deleteStep, used map[string]bool, res *Result) (pending, deferred bool) {
	changes := make([]Change, len(wave))
	forEach(len(wave), p.r.opts.Concurrency, func(n int) {
		k := wave[n].key
		if k.GroupKind() == gkNamespace && used[k.Name] {
			changes[n] = Change{Object: p.item(k).Ref(), Action: ActionWaiting}
			return
		}
		changes[n] = p.deleteItem(ctx, p.item(k))
	})
	for n, ch := range changes {
		switch {
		case ch.Action == ActionWaiting && wave[n].key.GroupKind() == gkNamespace:
			// Deferred, not blocking: what uses it may sit in a later
			// wave. It is deleted on the pass after they are gone.
			deferred = true
		case ch.Action == ActionDeleted || ch.Action == ActionSkipped:
			p.forget(wave[n].key)
		default:
			pending = true
		}
	}
	res.Changes = append(res.Changes, changes...)
	return pending, deferred
}

// deleteItem moves one object towards deletion and says where it is.
func (p *pass) deleteItem(ctx context.Context, it *inventory.Item) Change {
	r := p.r
	ref := it.Ref()
	fail := func(err error) Change {
		err = apierr.Classify(err)
		p.log.Error(err, "delete failed", "object", ref.String())
		return Change{Object: ref, Action: ActionFailed, Err: err}
	}
	live, err := p.readForDelete(ctx, it)
	switch {
	case isNoMatch(err):
		return Change{Object: ref, Action: ActionDeleted} // the type is gone, and with it every instance
	case err != nil:
		return fail(err)
	case live == nil:
		p.log.Info("deleted", "object", ref.String())
		return Change{Object: ref, Action: ActionDeleted}
	}
	if err := p.mayTouch(live, p.adoptionOf(it), ref); err != nil && r.separateReader {
		// The client's view may lag: confirm before giving the object up.
		if live, err = r.get(ctx, r.reader, ref, readLite); err != nil || live == nil {
			if err != nil {
				return fail(err)
			}
			return Change{Object: ref, Action: ActionDeleted}
		}
	}
	if err := p.mayTouch(live, p.adoptionOf(it), ref); err != nil {
		// Someone else owns it now: not ours to delete.
		r.event(live, true, ReasonFailed, "Delete", "not deleted: %v", err)
		p.log.Info("not deleted, owned by someone else", "object", ref.String())
		return Change{Object: ref, Action: ActionSkipped}
	}
	if len(it.ManagedTypes) > 0 {
		n, err := r.countInstances(ctx, it.ManagedTypes, nil)
		if err != nil {
			return fail(err)
		}
		if n > 0 {
			return Change{Object: ref, Action: ActionWaiting}
		}
		if u, ok := live.(*unstructured.Unstructured); ok && controllerutil.RemoveFinalizer(u, r.opts.Finalizer) {
			if err := r.client.Update(ctx, u, client.FieldOwner(r.opts.FieldOwner)); err != nil {
				return fail(fmt.Errorf("removing the finalizer of %s: %w", ref, err))
			}
		}
	}
	if live.GetDeletionTimestamp() != nil {
		it.SetPhase(inventory.PhaseDeleting)
		return Change{Object: ref, Action: ActionDeleting}
	}
	if err := p.deleteLive(ctx, live, ref, ReasonDeleted); err != nil {
		return fail(err)
	}
	it.SetPhase(inventory.PhaseDeleting)
	if goneOnDelete(live, ref) {
		return Change{Object: ref, Action: ActionDeleted}
	}
	return Change{Object: ref, Action: ActionDeleting}
}

// goneOnDelete reports whether a successful delete removed the object at
// once, sparing a read to confirm it: true without finalizers, except for
// kinds whose deletion is always asynchronous (namespaces are emptied first,
// pods terminate gracefully, CRDs and APIServices clean up their instances).
func goneOnDelete(live client.Object, ref inventory.Ref) bool {
	switch ref.Key().GroupKind() {
	case gkNamespace, schema.GroupKind{Kind: "Pod"}, gkCRD, gkAPIService:
		return false
	}
	return len(live.GetFinalizers()) == 0
}

// deleteLive deletes exactly the object that was read: the UID and
// resourceVersion preconditions make a concurrent change fail the delete
// instead of deleting something not inspected.
func (p *pass) deleteLive(ctx context.Context, live client.Object, ref inventory.Ref, reason string) error {
	r := p.r
	uid, rv := live.GetUID(), live.GetResourceVersion()
	err := r.client.Delete(ctx, live, client.Preconditions{UID: &uid, ResourceVersion: &rv}, client.PropagationPolicy(metav1.DeletePropagationBackground))
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return failure.Retriable(fmt.Errorf("deleting %s: changed while being deleted: %w", ref, err), 0)
	case err != nil:
		r.event(live, true, ReasonFailed, "Delete", "delete failed: %v", err)
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	r.event(live, false, reason, "Delete", "deleted %s", ref)
	p.log.Info("delete issued", "object", ref.String())
	return nil
}

// neverWritten reports an item whose object this engine never created: no
// write was recorded (objects found by their owner label record the
// resourceVersion they were found with).
func neverWritten(it *inventory.Item) bool {
	return it.Digest == "" && it.Generation == 0 && it.ResourceVersion == ""
}

// readForDelete reads the object to delete through the client (a cache,
// usually): the delete's UID and resourceVersion preconditions make a stale
// view fail safely, so the uncached reader is asked only when the client
// says the object is gone (a cache that has not seen it yet must not make
// the engine forget an object that exists).
func (p *pass) readForDelete(ctx context.Context, it *inventory.Item) (client.Object, error) {
	r := p.r
	ref := it.Ref()
	live, err := r.get(ctx, r.client, ref, readLite)
	if err != nil || live != nil || !r.separateReader {
		return live, err
	}
	return r.get(ctx, r.reader, ref, readLite)
}
