package shard_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/opkit-dev/opkit/shard"
)

// keys returns n resource keys like an operator's: one kind, a few
// namespaces, numbered names.
func keys(n int) []string {
	gk := schema.GroupKind{Group: "sample.opkit.dev", Kind: "SampleCluster"}
	out := make([]string, n)
	for i := range out {
		out[i] = shard.Key(gk, fmt.Sprintf("team-%d", i%7), fmt.Sprintf("cluster-%d", i))
	}
	return out
}

func owners(r *shard.Ring, ks []string) map[string]string {
	out := make(map[string]string, len(ks))
	for _, k := range ks {
		out[k] = r.Owner(k)
	}
	return out
}

func TestRingIsTheSameForEveryOrderOfMembers(t *testing.T) {
	ks := keys(2000)
	a := shard.NewRing([]string{"op-0", "op-1", "op-2"}, 0)
	b := shard.NewRing([]string{"op-2", "op-0", "op-1", "op-0"}, 0)
	if diff := cmp.Diff(owners(a, ks), owners(b, ks)); diff != "" {
		t.Errorf("rings of the same members disagree (-a +b):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"op-0", "op-1", "op-2"}, b.Members()); diff != "" {
		t.Errorf("Members (-want +got):\n%s", diff)
	}
}

func TestRingSharesKeysEvenly(t *testing.T) {
	ks := keys(9000)
	counts := map[string]int{}
	for _, o := range owners(shard.NewRing([]string{"op-0", "op-1", "op-2"}, 0), ks) {
		counts[o]++
	}
	for _, m := range []string{"op-0", "op-1", "op-2"} {
		// A third each, within 20 %.
		if c := counts[m]; c < 2400 || c > 3600 {
			t.Errorf("member %s owns %d of 9000 keys, want about 3000: %v", m, c, counts)
		}
	}
}

func TestRingMovesOnlyWhatAMembershipChangeRequires(t *testing.T) {
	ks := keys(9000)
	three := owners(shard.NewRing([]string{"op-0", "op-1", "op-2"}, 0), ks)
	four := owners(shard.NewRing([]string{"op-0", "op-1", "op-2", "op-3"}, 0), ks)
	two := owners(shard.NewRing([]string{"op-0", "op-2"}, 0), ks)

	moved := 0
	for _, k := range ks {
		if three[k] != four[k] {
			moved++
			if four[k] != "op-3" {
				t.Fatalf("key %s moved from %s to %s when op-3 joined: only moves to the new member are needed", k, three[k], four[k])
			}
		}
	}
	// A quarter of the keys, within 20 %.
	if moved < 1800 || moved > 2700 {
		t.Errorf("a fourth member took %d of 9000 keys, want about 2250", moved)
	}

	for _, k := range ks {
		if three[k] != "op-1" && two[k] != three[k] {
			t.Errorf("key %s of %s moved to %s when op-1 left: only op-1's keys should move", k, three[k], two[k])
		}
		if two[k] == "op-1" {
			t.Errorf("key %s is still given to op-1, which left", k)
		}
	}
}

func TestRingWithoutMembersOwnsNothing(t *testing.T) {
	if got := shard.NewRing(nil, 0).Owner("any"); got != "" {
		t.Errorf("Owner on an empty ring = %q, want \"\"", got)
	}
}

// Every bucket has one owner, and a key belongs to its bucket's owner.
func TestRingAssignsWholeBuckets(t *testing.T) {
	members := []string{"op-0", "op-1", "op-2"}
	r := shard.NewRing(members, 0)
	owner := map[int]string{}
	for _, m := range members {
		for _, b := range r.Buckets(m) {
			if prev, ok := owner[b]; ok {
				t.Fatalf("bucket %d is given to %s and %s", b, prev, m)
			}
			owner[b] = m
		}
	}
	if len(owner) != shard.Buckets {
		t.Errorf("%d of %d buckets have an owner", len(owner), shard.Buckets)
	}
	for _, k := range keys(2000) {
		if got, want := r.Owner(k), owner[shard.Bucket(k)]; got != want {
			t.Fatalf("key %s: owner %s, but its bucket %d is %s's", k, got, shard.Bucket(k), want)
		}
	}
	if got := r.Buckets("op-9"); len(got) != 0 {
		t.Errorf("Buckets of a member not on the ring = %v, want none", got)
	}
}

// A bucket is written into pod templates: it must be the same in every
// release, whatever the members.
func TestBucketNeverChanges(t *testing.T) {
	gk := schema.GroupKind{Group: "sample.opkit.dev", Kind: "SampleCluster"}
	for _, tc := range []struct {
		ns, name string
		want     int
	}{
		{"default", "simple", 242},
		{"team-a", "kafka", 413},
		{"team-b", "cluster-17", 520},
	} {
		if got := shard.Bucket(shard.Key(gk, tc.ns, tc.name)); got != tc.want {
			t.Errorf("Bucket(%s/%s) = %d, want %d", tc.ns, tc.name, got, tc.want)
		}
	}
}
