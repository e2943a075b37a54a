package apply

import (
	"context"
	"fmt"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// Plan tells what Apply would do with objects for opts.Owner, writing
// nothing: per object of the set, in apply order, whether it would be
// created, updated (with the fields that change), recreated, left
// unchanged or is blocked (another owner's object, a field that cannot
// change, a policy), and per object of the inventory that left the set
// (and per labelled object a lost inventory missed, with Options.Kinds)
// whether it would be deleted, orphaned or released, in the order Apply
// would delete them. Every wave is planned, not only the one the next pass
// reaches first; PlannedChange.Wave says which wave an object belongs to.
//
// The desired state of a create or an update is the API server's answer
// to a dry run of the very write Apply would send (query dryRun=All), so
// defaulting, admission and webhooks count; a delete is dry-run too, so
// the plan also proves the rights each write needs. An object whose
// digest and live version show it unchanged costs no dry run: only
// objects that would change are tried. Neither inv nor objects are
// modified.
//
// An invalid set fails as a whole (failure.ErrInvalid), as it would in
// Apply. A failure of one object (a dry run refused, a read failed) is in
// its change (PlannedChange.Err, a *DryRunError for a refused dry run),
// and the returned error joins them: a plan with an error is not
// complete and must not be shown as one.
func (r *Engine) Plan(ctx context.Context, inv *inventory.Inventory, objects []client.Object, opts PassOptions) (Plan, error) {
	ds, err := r.prepare(opts.Owner, objects)
	if err != nil {
		return Plan{}, err
	}
	opts.Changed = nil // every object is read: a plan trusts no hint
	p, err := r.newPass(ctx, inv.DeepCopy(), opts)
	if err != nil {
		return Plan{}, err
	}
	wanted := make(map[inventory.Key]bool, len(ds))
	for _, d := range ds {
		wanted[d.key] = true
		p.syncItem(d)
	}
	if err := p.adoptStrays(ctx, wanted); err != nil {
		return Plan{}, err
	}
	p.collectManaged()
	var obsolete []inventory.Key
	for i := range p.inv.Items {
		if k := p.inv.Items[i].Key(); !wanted[k] {
			obsolete = append(obsolete, k)
		}
	}
	sortForApply(ds)
	changes := make([]PlannedChange, len(ds))
	forEach(len(ds), r.opts.Concurrency, func(i int) {
		changes[i] = p.planObject(ctx, ds[i])
	})
	plan := Plan{Changes: slices.Concat(changes, p.planRemovals(ctx, obsolete, false))}
	return plan, plan.Err()
}

// PlanDelete tells what Delete would do with the objects of inv, writing
// nothing: per object, in delete order, whether it would be deleted
// (dry-run, with the preconditions Delete sends), orphaned or released,
// or is blocked because another owner took it over. inv is not modified.
// Errors are as for Plan.
func (r *Engine) PlanDelete(ctx context.Context, inv *inventory.Inventory, opts PassOptions) (Plan, error) {
	p, err := r.newPass(ctx, inv.DeepCopy(), opts)
	if err != nil {
		return Plan{}, err
	}
	if err := p.adoptStrays(ctx, nil); err != nil {
		return Plan{}, err
	}
	p.collectManaged()
	keys := make([]inventory.Key, 0, len(p.inv.Items))
	for i := range p.inv.Items {
		keys = append(keys, p.inv.Items[i].Key())
	}
	plan := Plan{Changes: p.planRemovals(ctx, keys, true)}
	return plan, plan.Err()
}

// planObject plans one object of the set, following applyOne and
// applyObject without their writes.
func (p *pass) planObject(ctx context.Context, d *desired) PlannedChange {
	it := p.item(d.key)
	pc := PlannedChange{Object: d.ref, Wave: d.settings.applyOrder, Transient: d.settings.purgeOrder != nil}
	ph := it.EffectivePhase()
	if (ph == inventory.PhaseCompleted || ph == inventory.PhaseCompleting) && it.Digest == d.digest {
		pc.Action, pc.Reason = PlanUnchanged, "ran and was purged after its wave; runs again only when it changes"
		return pc
	}
	live, err := p.r.getWith(ctx, p.r.client, d.ref, metadataOnly(d.gvk.GroupKind(), d.settings.hint))
	if err != nil {
		return failed(pc, err)
	}
	if live == nil {
		return p.planCreate(ctx, d, it, pc)
	}
	return p.planExisting(ctx, d, it, live, pc)
}

// planExisting plans an object that exists.
func (p *pass) planExisting(ctx context.Context, d *desired, it *inventory.Item, live client.Object, pc PlannedChange) PlannedChange {
	if live.GetDeletionTimestamp() != nil {
		pc.Action = PlanCreate
		pc.Reason = "the live object is being deleted; it is created again once it is gone"
		return pc
	}
	if err := p.mayTouch(live, d.settings.adoption, d.ref); err != nil {
		pc.Action, pc.Cause, pc.Reason = PlanBlocked, BlockForeignOwner, err.Error()
		return pc
	}
	why, err := p.drifted(ctx, d, it, &live)
	if err != nil {
		return failed(pc, err)
	}
	if why == "" {
		return p.planUnchanged(ctx, d, live, pc)
	}
	pc.Reason = why
	if d.settings.update == UpdatePolicyRecreate {
		return p.planRecreate(ctx, d, pc)
	}
	return p.planUpdate(ctx, d, pc)
}

// failed records err on pc.
func failed(pc PlannedChange, err error) PlannedChange {
	pc.Err = fmt.Errorf("planning %s: %w", pc.Object, err)
	return pc
}

// planReader is what a plan reads whole objects through: the engine's
// reader, or, without one, the client itself rather than its view of
// one informer per kind (InformerClient), which answers reads of
// metadata kinds with their metadata alone.
func (r *Engine) planReader() client.Reader {
	if r.separateReader {
		return r.reader
	}
	if ic, ok := r.client.(informerClient); ok {
		return ic.Client
	}
	return r.client
}
