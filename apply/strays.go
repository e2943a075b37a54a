package apply

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// Strays are searched for only when the inventory a pass starts from is
// not the one the engine's last pass of the owner left: on the owner's
// first pass since the engine started, after a lost status write (the
// inventory read back lacks what the pass recorded), or when the caller
// says the inventory was lost. Searching lists every kind of Options.Kinds
// by the owner's label; from a cache without an index on the label that
// scans every cached object of the kind, per owner, per pass, which at a
// few hundred owners was most of the engine's time. Kinds indexed by
// IndexOwners are read from the index instead.

// inventoryPrints remembers, per owner, a fingerprint of the inventory
// its last pass left. It is safe for concurrent use; the zero value is
// empty.
type inventoryPrints struct {
	mu sync.Mutex
	m  map[string]uint64
}

// fingerprint is a hash of the inventory's keys, whatever their order.
func fingerprint(inv *inventory.Inventory) uint64 {
	var sum uint64
	for i := range inv.Items {
		k := inv.Items[i].Key()
		h := fnv.New64a()
		for _, s := range []string{k.Group, k.Kind, k.Namespace, k.Name} {
			_, _ = h.Write([]byte(s))
			_, _ = h.Write([]byte{0})
		}
		sum += h.Sum64()
	}
	return sum + uint64(len(inv.Items))
}

// changed reports whether inv is not what the owner's last pass left.
func (f *inventoryPrints) changed(owner string, inv *inventory.Inventory) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	last, ok := f.m[owner]
	return !ok || last != fingerprint(inv)
}

// left remembers the inventory a pass of the owner left; nil forgets the
// owner.
func (f *inventoryPrints) left(owner string, inv *inventory.Inventory) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inv == nil {
		delete(f.m, owner)
		return
	}
	if f.m == nil {
		f.m = map[string]uint64{}
	}
	f.m[owner] = fingerprint(inv)
}

// strayDue reports whether the pass must search for strays (see above).
func (p *pass) strayDue() bool {
	return p.inventoryLost || p.r.prints.changed(p.owner.ID, p.inv)
}

// adoptStrays takes into the inventory the objects of Options.Kinds that
// carry the owner's label but are missing from it: objects created by a
// pass whose inventory was never persisted. Those not wanted are scheduled
// for deletion like any obsolete object, so a lost inventory leaks nothing.
func (p *pass) adoptStrays(ctx context.Context, wanted map[inventory.Key]bool) error {
	r := p.r
	for _, gvk := range r.opts.Kinds {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		var owned client.ListOption = client.MatchingLabels{r.OwnerLabelKey(): p.ownerLabel}
		if slices.Contains(r.opts.IndexedKinds, gvk) {
			owned = client.MatchingFields{ownerIndexField(r.OwnerLabelKey()): p.ownerLabel}
		}
		err := r.client.List(ctx, list, owned, client.UnsafeDisableDeepCopy)
		if isNoMatch(err) {
			continue
		}
		if err != nil {
			return apierr.Classify(fmt.Errorf("listing %s of owner %s: %w", gvk.Kind, p.owner.ID, err))
		}
		for i := range list.Items {
			m := &list.Items[i]
			k := inventory.Key{Group: gvk.Group, Kind: gvk.Kind, Namespace: m.Namespace, Name: m.Name}
			if p.item(k) != nil || wanted[k] || m.DeletionTimestamp != nil {
				continue
			}
			p.idx.Add(p.inv, inventory.Item{
				Group: k.Group, Version: gvk.Version, Kind: k.Kind, Namespace: k.Namespace, Name: k.Name,
				Phase: inventory.PhaseScheduledForDeletion, ResourceVersion: m.ResourceVersion,
			})
			p.log.Info("found an object of the owner missing from its inventory", "object", k.String())
		}
	}
	return nil
}
