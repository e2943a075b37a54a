package shard

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Selector returns the label selector of the member's share: the resources
// it owns and the objects they manage. A resource asked to drain still
// matches until its owner acknowledges.
func (m *Member) Selector() labels.Selector {
	req, err := labels.NewRequirement(m.shardKey, selection.Equals, []string{m.opts.Member})
	if err != nil {
		// Unreachable: New validated the key and the value.
		return labels.Nothing()
	}
	return labels.NewSelector().Add(*req)
}

// CacheByObject returns cache options that keep, for each kind of objs,
// only the member's share in the cache. Pass the sharded resource kinds
// and the kinds of the objects their passes write; leave out kinds the
// operator reads but does not write (user Secrets, Nodes): those stay
// whole. The result goes into cache.Options.ByObject (merge it with any
// entries already there).
func (m *Member) CacheByObject(objs ...client.Object) map[client.Object]cache.ByObject {
	out := make(map[client.Object]cache.ByObject, len(objs))
	for _, obj := range objs {
		out[obj] = cache.ByObject{Label: m.Selector()}
	}
	return out
}
