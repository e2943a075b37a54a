package apply

import (
	"context"
	"errors"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Delete brings the cluster one step closer to none of the inventory's
// objects existing: it deletes them in delete waves (delete order, then
// instances of managed types, then kinds in reverse apply priority) and
// removes each item once its object is gone. Objects whose delete policy is
// orphan or orphan-on-delete are only dropped from the inventory. It
// returns true when the inventory is empty; call it again until then.
func (r *Reconciler) Delete(ctx context.Context, inv *Inventory) (bool, error) {
	for _, it := range *inv {
		if it.Phase != PhaseDeleting {
			it.Phase = PhaseScheduledForDeletion
		}
	}
	return r.deleteItems(ctx, inv, slices.Clone(*inv), true)
}

// deleteItems works on the lowest delete wave that still has objects and
// reports whether all items are gone.
func (r *Reconciler) deleteItems(ctx context.Context, inv *Inventory, items []*InventoryItem, onDelete bool) (bool, error) {
	var steps []deleteStep
	for _, it := range items {
		if it.DeletePolicy == DeletePolicyOrphan ||
			(it.DeletePolicy == DeletePolicyOrphanOnApply && !onDelete) ||
			(it.DeletePolicy == DeletePolicyOrphanOnDelete && onDelete) {
			r.forget(inv, it)
			continue
		}
		steps = append(steps, deleteStep{item: it, order: it.DeleteOrder, priority: deletePriority(it.GroupKind(), r.isManagedInstance(*inv, it))})
	}
	sortForDelete(steps)
	deferred := false
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j].order == steps[i].order {
			j++
		}
		var errs []error
		pending := false
		for _, s := range steps[i:j] {
			if s.item.GroupKind() == gkNamespace && r.namespaceInUse(*inv, s.item) {
				// Deferred, not blocking: what uses it may sit in a later
				// wave. It is deleted on the pass after they are gone.
				deferred = true
				continue
			}
			gone, err := r.deleteItem(ctx, inv, s.item)
			if err != nil {
				errs = append(errs, err)
			}
			if gone {
				r.forget(inv, s.item)
			} else {
				pending = true
			}
		}
		if pending || len(errs) > 0 {
			return false, errors.Join(errs...)
		}
		i = j
	}
	return !deferred, nil
}

// deleteItem moves one object towards deletion and reports whether it is
// gone (or no longer ours to delete).
func (r *Reconciler) deleteItem(ctx context.Context, inv *Inventory, it *InventoryItem) (bool, error) {
	ref := &unstructured.Unstructured{}
	ref.SetGroupVersionKind(it.GroupVersionKind())
	ref.SetNamespace(it.Namespace)
	ref.SetName(it.Name)
	live, err := r.get(ctx, r.reader, ref)
	if isNoMatch(err) {
		return true, nil // the type is gone, and with it every instance
	}
	if err != nil || live == nil {
		return live == nil && err == nil, err
	}
	if err := r.mayTouch(live, it.AdoptionPolicy, it.String()); err != nil {
		// Someone else owns it now: not ours to delete.
		r.event(live, true, ReasonFailed, "Delete", "not deleted: %v", err)
		return true, nil
	}
	if len(it.ManagedTypes) > 0 {
		n, err := r.countInstances(ctx, it.ManagedTypes, nil)
		if err != nil || n > 0 {
			return false, err
		}
		if controllerutil.RemoveFinalizer(live, r.opts.Finalizer) {
			if err := r.client.Update(ctx, live, client.FieldOwner(r.opts.FieldOwner)); err != nil {
				return false, fmt.Errorf("removing the finalizer of %s: %w", it, err)
			}
		}
	}
	if live.GetDeletionTimestamp() != nil {
		it.Phase = PhaseDeleting
		return false, nil
	}
	if err := r.deleteLive(ctx, live, it, ReasonDeleted); err != nil {
		return false, err
	}
	return goneOnDelete(live), nil
}

// goneOnDelete reports whether a successful delete removed the object at
// once, sparing a read to confirm it: true without finalizers, except for
// kinds whose deletion is always asynchronous (namespaces are emptied first,
// pods terminate gracefully).
func goneOnDelete(live *unstructured.Unstructured) bool {
	gk := live.GroupVersionKind().GroupKind()
	return len(live.GetFinalizers()) == 0 && gk != gkNamespace && gk != (schema.GroupKind{Kind: "Pod"})
}

// deleteLive deletes exactly the object that was read: the UID and
// resourceVersion preconditions make a concurrent change fail the delete
// instead of deleting something not inspected.
func (r *Reconciler) deleteLive(ctx context.Context, live *unstructured.Unstructured, it *InventoryItem, reason string) error {
	uid, rv := live.GetUID(), live.GetResourceVersion()
	err := r.client.Delete(ctx, live, client.Preconditions{UID: &uid, ResourceVersion: &rv}, client.PropagationPolicy(metav1.DeletePropagationBackground))
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return &RetriableError{Err: fmt.Errorf("deleting %s: changed while being deleted: %w", it, err)}
	case err != nil:
		r.event(live, true, ReasonFailed, "Delete", "delete failed: %v", err)
		return fmt.Errorf("deleting %s: %w", it, err)
	}
	it.Phase = PhaseDeleting
	r.event(live, false, reason, "Delete", "deleted %s", it)
	return nil
}

func (r *Reconciler) forget(inv *Inventory, it *InventoryItem) {
	*inv = slices.DeleteFunc(*inv, func(x *InventoryItem) bool { return x == it })
}

// namespaceInUse reports whether another item of the inventory lives in
// the namespace item ns.
func (r *Reconciler) namespaceInUse(inv Inventory, ns *InventoryItem) bool {
	return slices.ContainsFunc(inv, func(x *InventoryItem) bool { return x.Namespace == ns.Name })
}

// isManagedInstance reports whether it is an instance of a type served by
// a CRD or APIService of the inventory.
func (r *Reconciler) isManagedInstance(inv Inventory, it *InventoryItem) bool {
	for _, x := range inv {
		if matchesType(x.ManagedTypes, it.GroupVersionKind()) {
			return true
		}
	}
	return false
}
