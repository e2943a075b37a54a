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

// Ring assigns keys to members by consistent hashing: every member owns
// VirtualNodes points on a 64-bit circle, and a key belongs to the member of
// the first point at or after the key's hash. Adding a member takes keys only
// from the points it lands before; removing one gives only its own keys to
// the members after its points. A Ring is immutable and safe for concurrent
// use; build a new one when the members change.
type Ring struct {
	members []string
	points  []point
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
	return r
}

// Members returns the ring's members, sorted.
func (r *Ring) Members() []string { return slices.Clone(r.members) }

// Owner returns the member owning key, or "" when the ring has no members.
func (r *Ring) Owner(key string) string {
	if len(r.points) == 0 {
		return ""
	}
	h := xxhash.Sum64String(key)
	i, _ := slices.BinarySearchFunc(r.points, h, func(p point, h uint64) int { return cmp.Compare(p.hash, h) })
	if i == len(r.points) {
		i = 0 // past the last point: the circle wraps to the first
	}
	return r.points[i].member
}
