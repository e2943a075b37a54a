package apply

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/api/inventory"
)

// PassOptions are the values of one Apply or Delete call.
type PassOptions struct {
	// Owner is whose objects the pass manages. Owner.ID is required.
	Owner Owner
	// Release, when non-nil, is asked for every object that leaves the
	// set (on Apply) or the inventory (on Delete): when it returns true the
	// object's item is dropped from the inventory without deleting the
	// object, and the change is ActionReleased. The object loses the
	// owner's label and annotations (one patch), so that no later pass
	// takes it for a stray; the caller then owns its fate (for instance a
	// cleaner that drains a StatefulSet before deleting it, finding it by
	// its own labels).
	Release func(inventory.Ref) bool
	// Changed, when non-nil, lists the objects whose live state may have
	// changed since the previous pass (from watch events, say). An object
	// not in it, whose desired state is unchanged and that was ready, is
	// taken as unchanged without being read, so a pass costs work in
	// proportion to what changed. Nil means every object is read. Objects
	// being created, updated, deleted or not ready, and kinds with
	// immutable-field rules, are read either way. Delete ignores it.
	Changed []inventory.Key
	// InventoryLost says the caller rebuilds an inventory it lost (a
	// status restored from a backup, or wiped by hand): an object to be
	// purged after its wave (a Helm hook, say) that no longer exists is
	// taken as completed rather than created, and so run, again. Objects
	// that carry the owner's marks and the desired state are taken back
	// without a write whether it is set or not.
	InventoryLost bool
	// Written, when non-nil, is called after each create or update the
	// pass makes, with the object's reference and the resourceVersion the
	// write left, before the pass goes on: a caller that watches the
	// objects tells its own writes from others' by it, before their watch
	// events can arrive. It may be called from several goroutines at once.
	Written func(ref inventory.Ref, resourceVersion string)
}

// pass holds what one Apply or Delete call knows, so that it asks once.
type pass struct {
	r          *Engine
	owner      Owner
	ownerLabel string
	inv        *inventory.Inventory
	idx        inventory.Index
	release    func(inventory.Ref) bool
	changed    map[inventory.Key]bool
	// inventoryLost is PassOptions.InventoryLost.
	inventoryLost bool
	// written is PassOptions.Written.
	written func(inventory.Ref, string)
	log     logr.Logger

	// mu guards what the workers of a wave share.
	mu        sync.Mutex
	reapplies int
	// gone are the items to drop from the inventory at the end of the pass.
	gone map[inventory.Key]bool
	// managed are the types the inventory's CRDs and APIServices serve.
	managed []TypeInfo
}

func (r *Engine) newPass(ctx context.Context, inv *inventory.Inventory, opts PassOptions) (*pass, error) {
	if err := checkOwner(opts.Owner); err != nil {
		return nil, err
	}
	p := &pass{
		r:             r,
		owner:         opts.Owner,
		ownerLabel:    ownerLabelValue(opts.Owner.ID),
		inv:           inv,
		idx:           inventory.NewIndex(inv),
		release:       opts.Release,
		inventoryLost: opts.InventoryLost,
		written:       opts.Written,
		log:           logr.FromContextOrDiscard(ctx).WithValues("owner", opts.Owner.ID),
		gone:          map[inventory.Key]bool{},
	}
	if opts.Changed != nil {
		p.changed = make(map[inventory.Key]bool, len(opts.Changed))
		for _, k := range opts.Changed {
			p.changed[k] = true
		}
	}
	return p, nil
}

// item returns the item of key, nil when there is none.
func (p *pass) item(key inventory.Key) *inventory.Item { return p.idx.Find(p.inv, key) }

// forget drops the item at the end of the pass.
func (p *pass) forget(key inventory.Key) {
	p.mu.Lock()
	p.gone[key] = true
	p.mu.Unlock()
}

// finish removes the forgotten items, and the versions known of their
// objects, and remembers the inventory the pass leaves (strays.go), or
// forgets the owner when ownerGone (a Delete that emptied the inventory).
func (p *pass) finish(ownerGone bool) {
	if len(p.gone) > 0 {
		gone := slices.Collect(maps.Keys(p.gone))
		p.r.known.drop(gone...)
		p.r.ignored.drop(gone...)
	}
	p.idx.Remove(p.inv, p.gone)
	clear(p.gone)
	if ownerGone {
		p.r.prints.left(p.owner.ID, nil)
		return
	}
	p.r.prints.left(p.owner.ID, p.inv)
}

// collectManaged lists the types the inventory's items serve.
func (p *pass) collectManaged() {
	p.managed = p.managed[:0]
	for i := range p.inv.Items {
		p.managed = append(p.managed, p.inv.Items[i].ManagedTypes...)
	}
}

// isManagedInstance reports whether it is an instance of a type served by
// a CRD or APIService of the inventory.
func (p *pass) isManagedInstance(it *inventory.Item) bool {
	return matchesType(p.managed, schema.GroupVersionKind{Group: it.Group, Version: it.Version, Kind: it.Kind})
}

// forEach calls fn for 0 ≤ i < n, at most limit at a time, and returns
// when all calls have.
func forEach(n, limit int, fn func(i int)) {
	if n == 0 {
		return
	}
	if limit <= 1 || n == 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			fn(i)
		})
	}
	wg.Wait()
}
