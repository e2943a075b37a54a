package apply

import (
	"hash/maphash"
	"slices"
	"strconv"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// ignoredMemo remembers, per object, the immutable fields an unchanged
// object's desired state states differently (ignoredIn). They follow from
// the desired state, which its digest names, and from the live object's
// immutable fields, which change only with the object's generation for
// the kinds whose generation follows their spec, and with its
// resourceVersion for the others. A StatefulSet in a rollout changes its
// status, not its generation, many times: each pass would otherwise
// convert and compare it again. The zero value is empty; it is safe for
// concurrent use.
type ignoredMemo struct {
	mu   sync.Mutex
	seed maphash.Seed
	// m holds an entry per object, under a hash of its key: an entry
	// takes a few dozen bytes, not the key's strings.
	m map[uint64]ignoredEntry
}

// ignoredEntry is one object's remembered ignoredIn result, for the
// state sum names (the desired digest, the object's UID and the version
// of its immutable fields, hashed).
type ignoredEntry struct {
	sum    uint64
	fields []string
	values []IgnoredValue
}

// immutableVersion is what changes whenever live's immutable fields may
// have: its generation for StatefulSets and Jobs, whose generation moves
// with every change of their spec, else its resourceVersion.
func immutableVersion(d *desired, live client.Object) string {
	switch d.gvk.GroupKind() {
	case gkStatefulSet, gkJob:
		return "g" + strconv.FormatInt(live.GetGeneration(), 10)
	}
	return "r" + live.GetResourceVersion()
}

// hash returns the hash of strs, each delimited.
func (m *ignoredMemo) hash(strs ...string) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, s := range strs {
		_, _ = h.WriteString(s)
		_ = h.WriteByte(0)
	}
	return h.Sum64()
}

// keyHash is the hash an object's entry is filed under.
func (m *ignoredMemo) keyHash(key inventory.Key) uint64 {
	return m.hash(key.Group, key.Kind, key.Namespace, key.Name)
}

// ignored returns ignoredIn(d, live), from memory when the desired state
// and live's immutable fields are those it was computed for.
func (m *ignoredMemo) ignored(d *desired, live client.Object) Change {
	if !hasImmutableRules(d.gvk.GroupKind()) {
		return Change{Action: ActionUnchanged}
	}
	m.mu.Lock()
	if m.m == nil {
		m.seed, m.m = maphash.MakeSeed(), map[uint64]ignoredEntry{}
	}
	key := m.keyHash(d.key)
	sum := m.hash(d.digest, string(live.GetUID()), immutableVersion(d, live))
	e, ok := m.m[key]
	m.mu.Unlock()
	if ok && e.sum == sum {
		// copies: a caller may change what it is given
		return Change{Action: ActionUnchanged, IgnoredFields: slices.Clone(e.fields), IgnoredValues: slices.Clone(e.values)}
	}
	ch := ignoredIn(d, live)
	m.mu.Lock()
	m.m[key] = ignoredEntry{sum: sum, fields: slices.Clone(ch.IgnoredFields), values: slices.Clone(ch.IgnoredValues)}
	m.mu.Unlock()
	return ch
}

// drop forgets the objects: they are gone.
func (m *ignoredMemo) drop(keys ...inventory.Key) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil { // nothing remembered, and no seed to hash with
		return
	}
	for _, key := range keys {
		delete(m.m, m.keyHash(key))
	}
}
