package apply

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// TypeInfo names an API type; see inventory.TypeRef.
type TypeInfo = inventory.TypeRef

// Apply brings the cluster one step closer to objects for opts.Owner: it
// validates the whole set first, then applies wave after wave (a wave
// starts only when the previous one is ready), deletes purged objects at
// the end of their wave, and finally deletes (or releases) the objects of
// the inventory that left the set. The inventory is updated in place, also
// when an error is returned: persist it either way. objects are not
// modified.
//
// An invalid set fails as a whole before anything is written
// (failure.ErrInvalid); a failure of one object fails only that object
// (its Change carries the error) and the pass stops at the end of its
// wave. The returned error joins the objects' errors, each classified
// (a 429 is failure.ErrRateLimited, a conflict failure.ErrRetriable).
func (r *Engine) Apply(ctx context.Context, inv *inventory.Inventory, objects []client.Object, opts PassOptions) (Result, error) {
	ds, err := r.prepare(opts.Owner, objects)
	if err != nil {
		return Result{}, err
	}
	p, err := r.newPass(ctx, inv, opts)
	if err != nil {
		return Result{}, err
	}
	defer p.finish(false)
	wanted := make(map[inventory.Key]bool, len(ds))
	for _, d := range ds {
		wanted[d.key] = true
		p.syncItem(d)
	}
	if p.strayDue() {
		if err := p.adoptStrays(ctx, wanted); err != nil {
			return Result{}, err
		}
	}
	p.collectManaged()
	var obsolete []inventory.Key
	for i := range inv.Items {
		it := &inv.Items[i]
		if !wanted[it.Key()] {
			if it.EffectivePhase() != inventory.PhaseDeleting {
				it.SetPhase(inventory.PhaseScheduledForDeletion)
			}
			obsolete = append(obsolete, it.Key())
		}
	}
	sortForApply(ds)
	var res Result
	var errs []error
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
		ready := p.applyWave(ctx, ds[i:j], &res)
		if ready {
			ready = p.purge(ctx, ds[:j], next, &res)
		}
		if !ready {
			for _, d := range ds[j:] {
				res.Changes = append(res.Changes, Change{Object: d.ref, Action: ActionWaiting})
			}
			return res, joinChanges(res, errs)
		}
		i = j
	}
	done := p.deleteItems(ctx, obsolete, false, &res)
	err = joinChanges(res, errs)
	res.Done = done && err == nil
	return res, err
}

// joinChanges joins the errors of the changes.
func joinChanges(res Result, errs []error) error {
	for _, c := range res.Changes {
		if c.Err != nil {
			errs = append(errs, c.Err)
		}
	}
	return errors.Join(errs...)
}

// syncItem finds or adds d's inventory item and records d's settings,
// storing the policies only where they differ from the defaults.
func (p *pass) syncItem(d *desired) {
	r := p.r
	it := p.item(d.key)
	if it == nil {
		i := p.idx.Add(p.inv, inventory.Item{
			Group: d.key.Group, Kind: d.key.Kind, Namespace: d.key.Namespace, Name: d.key.Name,
			Phase: inventory.PhaseScheduledForApplication,
		})
		it = &p.inv.Items[i]
	}
	it.Version = d.gvk.Version
	it.AdoptionPolicy = nonDefault(d.settings.adoption, r.opts.AdoptionPolicy)
	it.ReconcilePolicy = nonDefault(d.settings.reconcile, r.opts.ReconcilePolicy)
	it.UpdatePolicy = nonDefault(d.settings.update, r.opts.UpdatePolicy)
	it.DeletePolicy = nonDefault(d.settings.deletion, r.opts.DeletePolicy)
	it.ApplyOrder, it.DeleteOrder = int32(d.settings.applyOrder), int32(d.settings.delOrder)
	it.PurgeOrder = nil
	if d.settings.purgeOrder != nil {
		po := int32(*d.settings.purgeOrder)
		it.PurgeOrder = &po
	}
	it.ManagedTypes = d.managedTypes
	if it.EffectivePhase() == inventory.PhaseScheduledForDeletion {
		it.SetPhase(inventory.PhaseScheduledForApplication)
	}
}

func nonDefault[T ~string](v, def T) string {
	if v == def {
		return ""
	}
	return string(v)
}

// policies of an item, defaults filled in.
func (p *pass) adoptionOf(it *inventory.Item) AdoptionPolicy {
	if it.AdoptionPolicy == "" {
		return p.r.opts.AdoptionPolicy
	}
	return AdoptionPolicy(it.AdoptionPolicy)
}

func (p *pass) deletePolicyOf(it *inventory.Item) DeletePolicy {
	if it.DeletePolicy == "" {
		return p.r.opts.DeletePolicy
	}
	return DeletePolicy(it.DeletePolicy)
}

// applyWave applies the objects of one wave by kind priority, the objects
// of one priority Concurrency at a time. APIServices and webhook
// configurations are applied only once everything before them is ready
// (the workloads that back them), and instances of managed types only once
// their types are. It appends a change per object, in wave order, and
// reports whether the whole wave is ready.
func (p *pass) applyWave(ctx context.Context, wave []*desired, res *Result) bool {
	changes := make([]Change, len(wave))
	ready := true
	for i := 0; i < len(wave); {
		prio := applyPriority(wave[i].gvk.GroupKind(), wave[i].managedInstance || wave[i].apiServiceInstance)
		j := i
		for j < len(wave) && applyPriority(wave[j].gvk.GroupKind(), wave[j].managedInstance || wave[j].apiServiceInstance) == prio {
			j++
		}
		if !ready && (prio == prioAPIService || prio == prioInstances) {
			for k := i; k < len(wave); k++ {
				changes[k] = Change{Object: wave[k].ref, Action: ActionWaiting}
			}
			break
		}
		group := wave[i:j]
		forEach(len(group), p.r.opts.Concurrency, func(k int) {
			changes[i+k] = p.applyOne(ctx, group[k])
		})
		for k, d := range group {
			if changes[i+k].Err != nil || !settled(p.item(d.key).EffectivePhase()) {
				ready = false
			}
		}
		i = j
	}
	res.Changes = append(res.Changes, changes...)
	return ready
}

// settled reports the phases a wave may move on with: ready, or purged
// (or being purged, which the purge step after the wave follows).
func settled(ph inventory.Phase) bool {
	switch ph {
	case inventory.PhaseReady, inventory.PhaseCompleted, inventory.PhaseCompleting, inventory.PhaseScheduledForCompletion:
		return true
	}
	return false
}

// applyOne applies d and returns its change.
func (p *pass) applyOne(ctx context.Context, d *desired) Change {
	it := p.item(d.key)
	ph := it.EffectivePhase()
	if (ph == inventory.PhaseCompleted || ph == inventory.PhaseCompleting) && it.Digest == d.digest {
		return Change{Object: d.ref, Action: ActionUnchanged} // purged: only a changed object runs again
	}
	ch := p.applyObject(ctx, d, it)
	ch.Object = d.ref
	if ch.Err != nil {
		ch.Err = apierr.Classify(ch.Err)
		if ch.Action == "" {
			ch.Action = ActionFailed
		}
		p.log.Error(ch.Err, "apply failed", "object", d.ref.String())
	}
	return ch
}

// purge deletes the ready objects whose purge order falls before the next
// wave, and marks them completed once gone.
func (p *pass) purge(ctx context.Context, applied []*desired, next int, res *Result) bool {
	done := true
	for _, d := range applied {
		if d.settings.purgeOrder == nil || *d.settings.purgeOrder >= next {
			continue
		}
		it := p.item(d.key)
		if it.EffectivePhase() == inventory.PhaseCompleted {
			continue
		}
		if it.EffectivePhase() == inventory.PhaseReady {
			it.SetPhase(inventory.PhaseScheduledForCompletion)
		}
		live, err := p.r.get(ctx, p.r.reader, d.ref, readFull)
		switch {
		case err != nil:
			res.Changes = append(res.Changes, Change{Object: d.ref, Action: ActionFailed, Err: err})
			done = false
		case live == nil:
			it.SetPhase(inventory.PhaseCompleted)
			p.log.V(1).Info("purged", "object", d.ref.String())
			res.Changes = append(res.Changes, Change{Object: d.ref, Action: ActionPurged})
		default:
			done = false
			ch := Change{Object: d.ref, Action: ActionDeleting}
			if live.GetDeletionTimestamp() == nil {
				if err := p.deleteLive(ctx, live, d.ref, ReasonDeleted); err != nil {
					ch = Change{Object: d.ref, Action: ActionFailed, Err: err}
				}
			}
			it.SetPhase(inventory.PhaseCompleting)
			res.Changes = append(res.Changes, ch)
		}
	}
	return done
}

// createNamespace answers a create the API server refused because d's
// namespace does not exist: it creates the namespace when the policy
// allows (the caller then tries again), or waits for it otherwise. Trying
// the create first costs nothing when the namespace exists, which is
// nearly always, and needs no right to read namespaces: an operator bound
// to a Role in its own namespace only can apply.
func (p *pass) createNamespace(ctx context.Context, d *desired) error {
	ns := d.obj.GetNamespace()
	r := p.r
	if r.opts.MissingNamespacesPolicy == MissingNamespacesPolicyDoNotCreate {
		return failure.RequeueAfter(typeWait, "namespace %s of %s does not exist", ns, d.ref)
	}
	err := r.client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.FieldOwner(r.opts.FieldOwner))
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	if err == nil {
		p.log.Info("created namespace", "namespace", ns)
	}
	return nil
}

// missingNamespace reports whether err is the API server refusing an
// object because its namespace ns does not exist.
func missingNamespace(err error, ns string) bool {
	var st apierrors.APIStatus
	if ns == "" || !apierrors.IsNotFound(err) || !errors.As(err, &st) {
		return false
	}
	det := st.Status().Details
	return det != nil && det.Kind == "namespaces" && det.Name == ns
}
