package apicount

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Snapshot is a set of request counts. The zero value is empty and usable.
type Snapshot map[Key]int

// Sub returns s minus earlier: what happened between the two snapshots.
// Keys whose difference is zero are left out.
func (s Snapshot) Sub(earlier Snapshot) Snapshot {
	out := Snapshot{}
	for k := range keys(s, earlier) {
		if d := s[k] - earlier[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// Total is the number of requests.
func (s Snapshot) Total() int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}

// Verb is the number of requests with the verb.
func (s Snapshot) Verb(verb string) int {
	n := 0
	for k, v := range s {
		if k.Verb == verb {
			n += v
		}
	}
	return n
}

// Reads is the number of get, list and watch requests to resources.
func (s Snapshot) Reads() int { return s.count(Key.IsRead) }

// Writes is the number of create, update, patch, delete and
// deletecollection requests.
func (s Snapshot) Writes() int { return s.count(Key.IsWrite) }

func (s Snapshot) count(is func(Key) bool) int {
	n := 0
	for k, v := range s {
		if is(k) {
			n += v
		}
	}
	return n
}

// String lists the counts one per line, "verb resource: n", sorted.
func (s Snapshot) String() string {
	ks := slices.SortedFunc(maps.Keys(s), func(a, b Key) int {
		return cmp.Or(cmp.Compare(a.Verb, b.Verb), cmp.Compare(a.Resource, b.Resource))
	})
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, "%s %s: %d\n", k.Verb, k.Resource, s[k])
	}
	return b.String()
}

func keys(a, b Snapshot) map[Key]struct{} {
	out := make(map[Key]struct{}, len(a)+len(b))
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}
