package servertest_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// TestMembersShareTheResourcesAndTheirObjects starts three members over 60
// resources: each resource ends with the owner the ring gives it, each
// member's cache holds only its share, and the objects written for a
// resource carry its owner's label.
func TestMembersShareTheResourcesAndTheirObjects(t *testing.T) {
	r := newRing(t, 60)
	for _, n := range []string{"op-0", "op-1", "op-2"} {
		r.join(n)
	}
	got := r.converge("op-0", "op-1", "op-2")

	share := map[string]int{}
	for _, s := range got {
		share[s.Owner]++
	}
	for _, n := range r.names() {
		if share[n] == 0 {
			t.Errorf("member %s owns nothing: %v", n, share)
		}
	}
	shardKey, _ := r.keys()
	for _, n := range r.names() {
		state, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (cacheShare, bool, error) {
			s, err := r.cacheShare(ctx, n, shardKey)
			return s, err == nil && s.resources == share[n] && s.objects == share[n] && s.foreign == 0, err
		}, 30*time.Second)
		if err != nil {
			t.Errorf("member %s: cache holds %+v, want %d resources and their objects only: %v", n, state, share[n], err)
		}
	}
	if o := r.journal.overlaps(); len(o) > 0 {
		t.Errorf("passes ran at once on two members: %v", o)
	}

	// Each resource carries its bucket, which its owner's ring gives it;
	// the members' buckets cover each bucket once.
	held := map[string]string{}
	for _, n := range r.names() {
		m := r.members[n].member
		for _, b := range m.Buckets() {
			if other, ok := held[b]; ok {
				t.Fatalf("bucket %s is held by %s and %s", b, other, n)
			}
			held[b] = n
		}
	}
	if len(held) != shard.Buckets {
		t.Errorf("the members hold %d of %d buckets", len(held), shard.Buckets)
	}
	scs := &samplev1alpha1.SampleClusterList{}
	if err := r.c.List(t.Context(), scs, client.InNamespace(r.ns)); err != nil {
		t.Fatal(err)
	}
	bucketKey := r.members["op-0"].member.BucketLabel()
	for _, sc := range scs.Items {
		want := strconv.Itoa(shard.Bucket(shard.Key(sampleGVK.GroupKind(), sc.Namespace, sc.Name)))
		if got := sc.Labels[bucketKey]; got != want {
			t.Errorf("resource %s is labelled with bucket %q, want %s", sc.Name, got, want)
		}
		if owner := sc.Labels[shardKey]; held[want] != owner {
			t.Errorf("resource %s is owned by %s, but its bucket %s is %s's", sc.Name, owner, want, held[want])
		}
	}
}

// cacheShare counts what a member's cache holds: the resources, the
// ConfigMaps, and the objects of either kind labelled with another owner.
type cacheShare struct {
	resources, objects, foreign int
}

func (r *ring) cacheShare(ctx context.Context, member, shardKey string) (cacheShare, error) {
	c := r.members[member].cache
	var s cacheShare
	scs := &samplev1alpha1.SampleClusterList{}
	if err := c.List(ctx, scs, client.InNamespace(r.ns)); err != nil {
		return s, err
	}
	cms := &corev1.ConfigMapList{}
	if err := c.List(ctx, cms, client.InNamespace(r.ns)); err != nil {
		return s, err
	}
	s.resources, s.objects = len(scs.Items), len(cms.Items)
	for _, sc := range scs.Items {
		if sc.Labels[shardKey] != member {
			s.foreign++
		}
	}
	for _, cm := range cms.Items {
		if cm.Labels[shardKey] != member {
			s.foreign++
		}
	}
	return s, nil
}
