package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// shardedName is the reconciler name all replicas of the sharded shop
// operator share.
const shardedName = "sharded.shop.opkit.dev"

// Two sharded replicas of the component operator bring their shares of
// the shops to Ready; a third joins, and the shops the new ring gives it
// are let go by their owners (a label-only change, which the component's
// event filter would otherwise drop) and come Ready again under it, cached
// by it alone.
func TestShardedReplicasHandOverShopsToAJoiningOne(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	three := []string{"op-0", "op-1", "op-2"}
	shops := shopNames(ns, three, 2)
	ops := map[string]*operator{}
	for _, name := range three[:2] {
		ops[name] = startShardedShop(t, cp, ns, name)
	}
	for _, name := range slices.Concat(shops["op-0"], shops["op-1"], shops["op-2"]) {
		newShop(t, cp.Client, ns, name, shop.ShopSpec{Message: "hi", Replicas: 1})
	}
	ringLabel := commonsv1alpha1.LabelShardPrefix + "shop"
	two := shard.NewRing(three[:2], 0)
	for _, name := range slices.Concat(shops["op-0"], shops["op-1"], shops["op-2"]) {
		key := client.ObjectKey{Namespace: ns, Name: name}
		s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)
		if want := two.Owner(shard.Key(shopGK, ns, name)); s.Labels[ringLabel] != want {
			t.Errorf("shop %s is owned by %q, want %s", name, s.Labels[ringLabel], want)
		}
	}

	ops["op-2"] = startShardedShop(t, cp, ns, "op-2")
	for _, name := range shops["op-2"] {
		key := client.ObjectKey{Namespace: ns, Name: name}
		waitShop(t, cp.Client, key, time.Minute, func(s *shop.Shop) bool { return s.Labels[ringLabel] == "op-2" })
	}
	// A replica's cache sees a label move after the API server has it:
	// wait for each cache to hold its share, and nothing else.
	for _, name := range three {
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			cached := &shop.ShopList{}
			if err := ops[name].mgr.GetClient().List(ctx, cached, client.InNamespace(ns)); err != nil {
				return "", false, err
			}
			var held []string
			for _, s := range cached.Items {
				held = append(held, s.Name)
			}
			got := sorted(held)
			return fmt.Sprintf("replica %s caches %v, want its share %v only", name, got, shops[name]), slices.Equal(got, shops[name]), nil
		}, time.Minute); err != nil {
			t.Error(err)
		}
	}
	// The shops' objects follow them: each carries its shop's owner, and
	// each replica's cache holds the Deployments of its share alone.
	for _, name := range three {
		want := make([]string, 0, len(shops[name]))
		for _, s := range shops[name] {
			want = append(want, s+"-web")
		}
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			held, err := cachedDeployments(ctx, ops[name].mgr.GetClient(), ns)
			return fmt.Sprintf("replica %s caches the Deployments %v, want %v", name, held, want), slices.Equal(held, want), err
		}, time.Minute); err != nil {
			t.Error(err)
		}
		for _, d := range want {
			live := &appsv1.Deployment{}
			if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: d}, live); err != nil {
				t.Fatal(err)
			}
			if live.Labels[ringLabel] != name {
				t.Errorf("Deployment %s is labelled with owner %q, want %s", d, live.Labels[ringLabel], name)
			}
			if _, found := live.Spec.Template.Labels[ringLabel]; found {
				t.Errorf("Deployment %s's pod template carries the owner label: a move would roll its pods", d)
			}
		}
	}
}

// cachedDeployments lists the names of the Deployments c's cache holds in
// ns, sorted.
func cachedDeployments(ctx context.Context, c client.Reader, ns string) ([]string, error) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("DeploymentList"))
	if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(list.Items))
	for _, d := range list.Items {
		out = append(out, d.Name)
	}
	slices.Sort(out)
	return out, nil
}

var shopGK = schema.GroupKind{Group: shop.GroupVersion.Group, Kind: "Shop"}

// shopNames picks n shop names in ns for each member, as the ring of
// members assigns them, each list sorted.
func shopNames(ns string, members []string, n int) map[string][]string {
	ring := shard.NewRing(members, 0)
	out := map[string][]string{}
	for i := 0; len(out) < len(members) || slices.ContainsFunc(members, func(m string) bool { return len(out[m]) < n }); i++ {
		name := fmt.Sprintf("shop-%d", i)
		if owner := ring.Owner(shard.Key(shopGK, ns, name)); len(out[owner]) < n {
			out[owner] = append(out[owner], name)
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// startShardedShop starts one replica of the sharded shop operator: its
// shard member (released after the operator stopped) and its manager.
func startShardedShop(t *testing.T, cp *controlplane.ControlPlane, ns, member string) *operator {
	t.Helper()
	direct, err := client.New(cp.RESTConfig(), client.Options{Scheme: testScheme()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := shard.New(direct, direct, shard.Options{
		Ring: "shop", Member: member, Namespace: ns, Namespaces: []string{ns},
		Resources:     []schema.GroupVersionKind{shop.GroupVersion.WithKind("Shop")},
		LeaseDuration: 6 * time.Second, RenewInterval: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(testkit.Context(t))
	done := make(chan error, 1)
	go func() { done <- m.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("shard member %s: %v", member, err)
		}
		if err := m.Release(context.Background()); err != nil {
			t.Errorf("releasing %s: %v", member, err)
		}
	})
	return startOperator(t, cp, ns, setup{name: shardedName, opts: component.Options{Sharding: m}})
}
