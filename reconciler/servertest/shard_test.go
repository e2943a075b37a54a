package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// Two replicas of the product operator with sharding on, without leader
// election: every cluster resource is claimed by the replica the ring
// gives it and converges there, and each replica's cache holds only its
// own cluster resources.
func TestShardedReplicasEachConvergeTheirShare(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	replicas := []string{"op-0", "op-1"}
	share := clustersPerReplica(ns, replicas, 2)
	ring := commonsv1alpha1.LabelShardPrefix + "sample"
	bucketKey := commonsv1alpha1.LabelShardBucketPrefix + "sample"
	gk := samplev1alpha1.GroupVersion.WithKind("SampleCluster").GroupKind()

	ops := map[string]*operator{}
	for _, name := range replicas {
		direct, err := client.New(cp.RESTConfig(), client.Options{Scheme: testScheme()})
		if err != nil {
			t.Fatal(err)
		}
		member, err := shard.New(direct, direct, shard.Options{
			Ring: "sample", Member: name, Namespace: ns, Namespaces: []string{ns},
			Resources:     []schema.GroupVersionKind{samplev1alpha1.GroupVersion.WithKind("SampleCluster")},
			LeaseDuration: 6 * time.Second, RenewInterval: time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		// Started first so that it stops last: its Lease is released
		// after the manager's passes ended.
		runMember(t, member)
		cfg := baseConfig()
		cfg.Sharding = member
		ops[name] = startOperatorWith(t, cp.RESTConfig(), ns, cfg, testkit.Logger(t))
	}
	for _, name := range replicas {
		for _, cluster := range share[name] {
			if err := cp.Client.Create(t.Context(), newCluster(ns, cluster, map[string]map[string]int32{"server": {"default": 1}})); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range replicas {
		for _, cluster := range share[name] {
			got := waitCondition(t, cp.Client, client.ObjectKey{Namespace: ns, Name: cluster}, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
			if owner := got.Labels[ring]; owner != name {
				t.Errorf("cluster %s is owned by %q, want %s", cluster, owner, name)
			}
			if b, want := got.Labels[bucketKey], strconv.Itoa(shard.Bucket(shard.Key(gk, ns, cluster))); b != want {
				t.Errorf("cluster %s is in bucket %q, want %s", cluster, b, want)
			}
		}
		cached := &samplev1alpha1.SampleClusterList{}
		if err := ops[name].client.List(t.Context(), cached, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		var held []string
		for _, cr := range cached.Items {
			held = append(held, cr.Name)
		}
		slices.Sort(held)
		if !slices.Equal(held, share[name]) {
			t.Errorf("replica %s caches %v, want its share %v only", name, held, share[name])
		}
		// The objects follow their cluster: labelled with its owner (but
		// for the pod template, which a move must not roll, and which
		// carries the cluster's bucket instead), and cached by that
		// replica alone.
		var want []string
		for _, cluster := range share[name] {
			sts := &appsv1.StatefulSet{}
			key := client.ObjectKey{Namespace: ns, Name: cluster + "-server-default"}
			if err := cp.Client.Get(t.Context(), key, sts); err != nil {
				t.Fatal(err)
			}
			if owner := sts.Labels[ring]; owner != name {
				t.Errorf("StatefulSet %s is labelled with owner %q, want %s", key.Name, owner, name)
			}
			if _, found := sts.Spec.Template.Labels[ring]; found {
				t.Errorf("the pod template of StatefulSet %s carries the owner label", key.Name)
			}
			if b, want := sts.Spec.Template.Labels[bucketKey], strconv.Itoa(shard.Bucket(shard.Key(gk, ns, cluster))); b != want {
				t.Errorf("the pod template of StatefulSet %s carries bucket %q, want %s", key.Name, b, want)
			}
			want = append(want, key.Name)
		}
		sets := &metav1.PartialObjectMetadataList{}
		sets.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("StatefulSetList"))
		if err := ops[name].client.List(t.Context(), sets, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		var sts []string
		for _, s := range sets.Items {
			sts = append(sts, s.Name)
		}
		slices.Sort(sts)
		if !slices.Equal(sts, want) {
			t.Errorf("replica %s caches the StatefulSets %v, want those of its share %v only", name, sts, want)
		}
	}
}

// clustersPerReplica picks n cluster names in ns for each replica, as the
// ring of replicas assigns them, each list sorted.
func clustersPerReplica(ns string, replicas []string, n int) map[string][]string {
	ring := shard.NewRing(replicas, 0)
	gk := samplev1alpha1.GroupVersion.WithKind("SampleCluster").GroupKind()
	out := map[string][]string{}
	for i := 0; len(out) < len(replicas) || !allFull(out, n); i++ {
		name := fmt.Sprintf("cluster-%d", i)
		owner := ring.Owner(shard.Key(gk, ns, name))
		if len(out[owner]) < n {
			out[owner] = append(out[owner], name)
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

func allFull(m map[string][]string, n int) bool {
	for _, v := range m {
		if len(v) < n {
			return false
		}
	}
	return true
}

// runMember runs a shard member until the test ends, then releases its
// Lease; a member that stopped with an error fails the test.
func runMember(t *testing.T, m *shard.Member) {
	t.Helper()
	ctx, cancel := context.WithCancel(testkit.Context(t))
	done := make(chan error, 1)
	go func() { done <- m.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("shard member %s: %v", m.Name(), err)
		}
		if err := m.Release(context.Background()); err != nil {
			t.Errorf("releasing %s: %v", m.Name(), err)
		}
	})
}
