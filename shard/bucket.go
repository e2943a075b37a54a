package shard

import "strconv"

// BucketLabel returns the key of the label that carries a resource's bucket
// (Bucket of its Key, in decimal). A member claiming a resource sets it on
// the resource beside the owner label, and it stays there; the product
// reconciler copies it to the pod templates of the resource's workloads.
// A pod's bucket, unlike its resource's owner, never changes, so a move
// rolls no pod, and each member caches the pods of its own buckets
// (Buckets).
func (m *Member) BucketLabel() string { return m.bucketKey }

// Buckets returns the buckets the member's ring gave it at its last
// review of the assignment (Sync), as label values in increasing order;
// none before its first review, or when it is not live. The resources in
// them are the member's or about to be: a resource moves to the member a
// little after its bucket does, once its former owner let it go.
func (m *Member) Buckets() []string {
	if !m.Live() {
		return nil
	}
	r := m.ring.Load()
	if r == nil {
		return nil
	}
	bs := r.Buckets(m.opts.Member)
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = strconv.Itoa(b)
	}
	return out
}
