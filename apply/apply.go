package apply

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Result is the outcome of an Apply pass.
type Result struct {
	// Ready is set when every object is applied and ready and every
	// obsolete object is gone. Call Apply again until it is.
	Ready bool
	// IgnoredFields lists, per object, the fields whose desired value
	// differed from the live one but could not be applied because the API
	// server does not allow changing them. Callers typically report each
	// entry as an ImmutableFieldIgnored warning.
	IgnoredFields []IgnoredFields
}

// IgnoredFields names the preserved fields of one object.
type IgnoredFields struct {
	// Object names the object, e.g. "StatefulSet.apps ns/name".
	Object string
	// Fields are field paths such as "spec.volumeClaimTemplates".
	Fields []string
}

// pass holds what one Apply call learned, so that it asks once.
type pass struct {
	namespaces map[string]bool
}

// Apply brings the cluster one step closer to objects: it validates the
// whole set first, then applies wave after wave (a wave starts only when
// the previous one is ready), deletes purged objects at the end of their
// wave, and finally deletes objects of the inventory that left the set. The
// inventory is updated in place, also when an error is returned: persist it
// either way. objects are not modified.
func (r *Reconciler) Apply(ctx context.Context, inv *Inventory, objects []client.Object) (Result, error) {
	ds, err := r.prepare(objects)
	if err != nil {
		return Result{}, err
	}
	wanted := map[string]bool{}
	for _, d := range ds {
		wanted[d.key] = true
		r.syncItem(inv, d)
	}
	var obsolete []*InventoryItem
	for _, it := range *inv {
		if !wanted[it.key()] {
			if it.Phase != PhaseDeleting {
				it.Phase = PhaseScheduledForDeletion
			}
			obsolete = append(obsolete, it)
		}
	}
	sortForApply(ds)
	p := &pass{namespaces: map[string]bool{}}
	var res Result
	for i := 0; i < len(ds); {
		wave := ds[i].settings.applyOrder
		j := i
		for j < len(ds) && ds[j].settings.applyOrder == wave {
			j++
		}
		next := MaxOrder + 1
		if j < len(ds) {
			next = ds[j].settings.applyOrder
		}
		ready, err := r.applyWave(ctx, p, inv, ds[i:j], &res)
		if err != nil || !ready {
			return res, err
		}
		if ready, err := r.purge(ctx, inv, ds[:j], next); err != nil || !ready {
			return res, err
		}
		i = j
	}
	done, err := r.deleteItems(ctx, inv, obsolete, false)
	res.Ready = done && err == nil
	return res, err
}

// syncItem finds or adds d's inventory item and records d's settings.
func (r *Reconciler) syncItem(inv *Inventory, d *desired) {
	it := inv.Find(d.gvk.GroupKind(), d.u.GetNamespace(), d.u.GetName())
	if it == nil {
		it = &InventoryItem{
			NameInfo: NameInfo{Namespace: d.u.GetNamespace(), Name: d.u.GetName()},
			Phase:    PhaseScheduledForApplication,
		}
		*inv = append(*inv, it)
	}
	it.TypeInfo = TypeInfo{Group: d.gvk.Group, Version: d.gvk.Version, Kind: d.gvk.Kind}
	it.AdoptionPolicy, it.ReconcilePolicy = d.settings.adoption, d.settings.reconcile
	it.UpdatePolicy, it.DeletePolicy = d.settings.update, d.settings.deletion
	it.ApplyOrder, it.DeleteOrder, it.PurgeOrder = d.settings.applyOrder, d.settings.delOrder, d.settings.purgeOrder
	it.ManagedTypes = d.managedTypes
	if it.Phase == PhaseScheduledForDeletion {
		it.Phase = PhaseScheduledForApplication
	}
}

// applyWave applies the objects of one wave; instances of managed types
// wait until the wave's CRDs and APIServices are ready.
func (r *Reconciler) applyWave(ctx context.Context, p *pass, inv *Inventory, wave []*desired, res *Result) (bool, error) {
	ready, typesReady := true, true
	var errs []error
	for _, d := range wave {
		if d.managedInstance && !typesReady {
			ready = false
			continue
		}
		it := inv.Find(d.gvk.GroupKind(), d.u.GetNamespace(), d.u.GetName())
		if (it.Phase == PhaseCompleted || it.Phase == PhaseCompleting) && it.Digest == d.digest {
			continue // purged: only a changed object runs again
		}
		fields, err := r.applyObject(ctx, p, d, it)
		if len(fields) > 0 {
			res.IgnoredFields = append(res.IgnoredFields, IgnoredFields{Object: d.ref, Fields: fields})
		}
		if err != nil {
			errs = append(errs, err)
		}
		if err != nil || it.Phase != PhaseReady {
			ready = false
			if len(d.managedTypes) > 0 {
				typesReady = false
			}
		}
	}
	return ready, errors.Join(errs...)
}

// purge deletes the ready objects whose purge order falls before the next
// wave, and marks them completed once gone.
func (r *Reconciler) purge(ctx context.Context, inv *Inventory, applied []*desired, next int) (bool, error) {
	done := true
	var errs []error
	for _, d := range applied {
		if d.settings.purgeOrder == nil || *d.settings.purgeOrder >= next {
			continue
		}
		it := inv.Find(d.gvk.GroupKind(), d.u.GetNamespace(), d.u.GetName())
		if it.Phase == PhaseCompleted {
			continue
		}
		live, err := r.get(ctx, r.reader, d.u)
		switch {
		case err != nil:
			errs = append(errs, err)
			done = false
		case live == nil:
			it.Phase = PhaseCompleted
		default:
			done = false
			if live.GetDeletionTimestamp() == nil {
				errs = append(errs, r.deleteLive(ctx, live, it, ReasonDeleted))
			}
			it.Phase = PhaseCompleting
		}
	}
	return done, errors.Join(errs...)
}

// ensureNamespace makes sure the namespace of a namespaced object exists,
// creating it when the policy allows.
func (r *Reconciler) ensureNamespace(ctx context.Context, p *pass, d *desired) error {
	ns := d.u.GetNamespace()
	if ns == "" || p.namespaces[ns] {
		return nil
	}
	err := r.client.Get(ctx, types.NamespacedName{Name: ns}, &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}})
	switch {
	case err == nil:
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("reading namespace %s: %w", ns, err)
	case r.opts.MissingNamespacesPolicy == MissingNamespacesPolicyDoNotCreate:
		return &RetriableError{Err: fmt.Errorf("namespace %s of %s does not exist", ns, d.ref)}
	default:
		err := r.client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.FieldOwner(r.opts.FieldOwner))
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating namespace %s: %w", ns, err)
		}
	}
	p.namespaces[ns] = true
	return nil
}
