package shard

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// DefaultVirtualNodes is the number of points each member gets on a Ring
// when none is asked for. A hundred points per member keep every member's
// share within a few percent of the mean for rings of up to a few dozen
// members.
const DefaultVirtualNodes = 100

// Buckets is how many buckets keys fall into (Bucket). It is fixed: a
// product's pod templates carry their resource's bucket, and another count
// would change them all.
const Buckets = 1024

// Bucket returns the bucket of key, from 0 to Buckets-1. It depends on the
// key alone, never on the members, so a resource keeps its bucket when it
// moves; the Ring assigns whole buckets.
func Bucket(key string) int {
	return int(xxhash.Sum64String(key) % Buckets)
}

// Ring assigns keys to members by consistent hashing: every member owns
// VirtualNodes points on a 64-bit circle, every bucket (Bucket) has one
// point of its own, and a bucket, with every key in it, belongs to the
// member of the first point at or after the bucket's. Adding a member
// takes buckets only from the points it lands before; removing one gives
// only its own buckets to the members after its points. Assigning buckets
// rather than keys lets a replica select what it owns with one label
// selector that changes only when the members do. A Ring is immutable and
// safe for concurrent use; build a new one when the members change.
type Ring struct {
	members []string
	points  []point
	owners  []string // by bucket; nil when the ring has no members
}

type point struct {
	hash   uint64
	member string
}

// NewRing returns the ring of the given members with virtualNodes points each
// (DefaultVirtualNodes when virtualNodes is zero or less). The order of
// members and duplicates do not matter: equal member sets give equal rings
// in every process.
func NewRing(members []string, virtualNodes int) *Ring {
	if virtualNodes <= 0 {
		virtualNodes = DefaultVirtualNodes
	}
	sorted := slices.Clone(members)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	r := &Ring{members: sorted, points: make([]point, 0, len(sorted)*virtualNodes)}
	for _, m := range sorted {
		for i := range virtualNodes {
			r.points = append(r.points, point{hash: xxhash.Sum64String(m + "#" + strconv.Itoa(i)), member: m})
		}
	}
	// Ties between two members' points are broken by name, so every
	// process orders the circle the same way.
	slices.SortFunc(r.points, func(a, b point) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), strings.Compare(a.member, b.member))
	})
	if len(r.points) > 0 {
		r.owners = make([]string, Buckets)
		for b := range r.owners {
			r.owners[b] = r.at(xxhash.Sum64String("bucket#" + strconv.Itoa(b)))
		}
	}
	return r
}

// Members returns the ring's members, sorted.
func (r *Ring) Members() []string { return slices.Clone(r.members) }

// Owner returns the member owning key (the owner of its bucket), or ""
// when the ring has no members.
func (r *Ring) Owner(key string) string {
	if r.owners == nil {
		return ""
	}
	return r.owners[Bucket(key)]
}

// Buckets returns the buckets member owns, in increasing order; none when
// it is not on the ring.
func (r *Ring) Buckets(member string) []int {
	var out []int
	for b, m := range r.owners {
		if m == member {
			out = append(out, b)
		}
	}
	return out
}

// at returns the member of the first point at or after hash h.
func (r *Ring) at(h uint64) string {
	i, _ := slices.BinarySearchFunc(r.points, h, func(p point, h uint64) int { return cmp.Compare(p.hash, h) })
	if i == len(r.points) {
		i = 0 // past the last point: the circle wraps to the first
	}
	return r.points[i].member
}
