package inventory

import "slices"

// Inventory is the record of the objects an engine manages for one owner.
// The zero value is an empty inventory.
type Inventory struct {
	// Items are the recorded objects, in no particular order.
	// +optional
	Items []Item `json:"items,omitempty"`
	// Packed is how a large inventory is written: the JSON array of its
	// items, gzip-compressed. It is set only in the JSON form; after
	// decoding, Items hold the items and Packed is empty.
	// +optional
	Packed []byte `json:"z,omitempty"`
}

// Len returns the number of items.
func (inv *Inventory) Len() int { return len(inv.Items) }

// Index maps the keys of an inventory's items to their positions. Build it
// once per pass with NewIndex; it stays valid until items are added or
// removed other than through it.
//
// +kubebuilder:object:generate=false
type Index map[Key]int

// NewIndex indexes the items of inv.
func NewIndex(inv *Inventory) Index {
	idx := make(Index, len(inv.Items))
	for i := range inv.Items {
		idx[inv.Items[i].Key()] = i
	}
	return idx
}

// Find returns the item of key, or nil. The pointer is valid until the next
// Add or Compact.
func (idx Index) Find(inv *Inventory, key Key) *Item {
	if i, ok := idx[key]; ok && i < len(inv.Items) {
		return &inv.Items[i]
	}
	return nil
}

// Add appends it to inv unless an item of its key exists, and returns the
// position of the item of that key. Pointers returned by Find before an Add
// may be stale afterwards.
func (idx Index) Add(inv *Inventory, it Item) int {
	k := it.Key()
	if i, ok := idx[k]; ok {
		return i
	}
	inv.Items = append(inv.Items, it)
	idx[k] = len(inv.Items) - 1
	return len(inv.Items) - 1
}

// Remove drops the items whose keys are in gone, keeping the order of the
// others, and rebuilds the index in place.
func (idx Index) Remove(inv *Inventory, gone map[Key]bool) {
	if len(gone) == 0 {
		return
	}
	inv.Items = slices.DeleteFunc(inv.Items, func(it Item) bool { return gone[it.Key()] })
	clear(idx)
	for i := range inv.Items {
		idx[inv.Items[i].Key()] = i
	}
}

// Ready reports whether every item is ready or completed.
func (inv *Inventory) Ready() bool {
	for i := range inv.Items {
		if p := inv.Items[i].EffectivePhase(); p != PhaseReady && p != PhaseCompleted {
			return false
		}
	}
	return true
}

// Sort orders the items by key, for a stable JSON form.
func (inv *Inventory) Sort() {
	slices.SortFunc(inv.Items, func(a, b Item) int { return a.Key().Compare(b.Key()) })
}
