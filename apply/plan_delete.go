package apply

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// planRemovals plans the objects leaving the set (or, onDelete, the
// inventory) as deleteItems would treat them: those let go (released, or orphaned by their policy) first,
// then the deletes in delete order. An item whose object was never
// written, or is gone already, changes nothing in the cluster and is not
// listed.
func (p *pass) planRemovals(ctx context.Context, keys []inventory.Key, onDelete bool) []PlannedChange {
	var (
		letGo []PlannedChange
		steps []deleteStep
	)
	for _, k := range keys {
		it := p.item(k)
		ref := it.Ref()
		pol := p.deletePolicyOf(it)
		pc := PlannedChange{Object: ref, Wave: int(it.DeleteOrder)}
		switch {
		case neverWritten(it):
			continue
		case p.release != nil && p.release(ref):
			pc.Action, pc.Reason = PlanRelease, "handed to the caller: kept, without the owner's marks"
			letGo = append(letGo, pc)
		case pol == DeletePolicyOrphan || (pol == DeletePolicyOrphanOnApply && !onDelete) || (pol == DeletePolicyOrphanOnDelete && onDelete):
			pc.Action, pc.Reason = PlanOrphan, fmt.Sprintf("delete policy %s: kept, without the owner's marks", pol)
			letGo = append(letGo, pc)
		default:
			steps = append(steps, deleteStep{key: k, order: int(it.DeleteOrder), priority: deletePriority(k.GroupKind(), p.isManagedInstance(it))})
		}
	}
	sortForDelete(steps)
	deletes := make([]PlannedChange, len(steps))
	forEach(len(steps), p.r.opts.Concurrency, func(i int) {
		deletes[i] = p.planDelete(ctx, p.item(steps[i].key))
	})
	out := letGo
	for _, pc := range deletes {
		if pc.Action != "" || pc.Err != nil {
			out = append(out, pc)
		}
	}
	return out
}

// planDelete plans the delete of one item, dry-running it with the
// preconditions Apply would send. A change without an action means the
// object is gone already.
func (p *pass) planDelete(ctx context.Context, it *inventory.Item) PlannedChange {
	r := p.r
	ref := it.Ref()
	pc := PlannedChange{Object: ref, Wave: int(it.DeleteOrder)}
	live, err := r.getWith(ctx, r.planReader(), ref, false)
	switch {
	case isNoMatch(err):
		return pc // the type is gone, and with it every instance
	case err != nil:
		return failed(pc, err)
	case live == nil:
		return pc
	}
	if err := p.mayTouch(live, p.adoptionOf(it), ref); err != nil {
		pc.Action, pc.Cause = PlanBlocked, BlockForeignOwner
		pc.Reason = "owned by someone else now: dropped from the inventory, not deleted (" + err.Error() + ")"
		return pc
	}
	pc.Action = PlanDelete
	l, err := full(live)
	if err != nil {
		return failed(pc, err)
	}
	pc.Live = normalised(l)
	maskSecret(pc.Live, nil)
	if len(it.ManagedTypes) > 0 {
		n, err := r.countInstances(ctx, it.ManagedTypes, nil)
		if err != nil {
			return failed(pc, err)
		}
		if n > 0 {
			pc.Reason = fmt.Sprintf("waits until the %d instance(s) of the types it serves are gone; not tried against the server", n)
			return pc
		}
	}
	if live.GetDeletionTimestamp() != nil {
		pc.Reason = "being deleted already"
		return pc
	}
	if err := p.dryRunDelete(ctx, l); err != nil {
		return failed(pc, &DryRunError{Object: ref, Verb: "delete", Err: err})
	}
	pc.Verified = true
	return pc
}

// dryRunDelete sends the delete Apply would send, as a dry run.
func (p *pass) dryRunDelete(ctx context.Context, live *unstructured.Unstructured) error {
	uid, rv := live.GetUID(), live.GetResourceVersion()
	return p.r.client.Delete(ctx, live.DeepCopy(), client.DryRunAll,
		client.Preconditions{UID: &uid, ResourceVersion: &rv}, client.PropagationPolicy(metav1.DeletePropagationBackground))
}
