package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// bundleRing is the shard ring of the sharded bundle operator.
const bundleRing = "bundles"

// shardedBundleOperator returns one replica of the component operator
// with sharding on, logging through log: a member of the ring named member, its Lease in ns,
// and the reconciler restricted to its share.
func shardedBundleOperator(log logr.Logger, ns, member string, passes *passCounter) crash.Operator {
	return shardedOperator(ns, bundleRing, member, bundle.GroupVersion.WithKind("Bundle"),
		func(ctx context.Context, cfg *rest.Config, m *shard.Member) (ctrl.Manager, error) {
			return bundleManager(ctx, cfg, log.WithValues("replica", member), ns, sharding(m, passes))
		})
}

// shardedOperator returns one sharded replica: a member of the ring named
// ring, sharding the resources of kind gvk in ns, its Lease in ns, beside
// the manager build sets up for it. A replica stopped gracefully releases
// its Lease once its passes have ended; a killed one cannot (its requests
// fail), and the others take its share once its Lease has expired.
func shardedOperator(ns, ring, member string, gvk schema.GroupVersionKind, build func(context.Context, *rest.Config, *shard.Member) (ctrl.Manager, error)) crash.Operator {
	return func(ctx context.Context, cfg *rest.Config) error {
		direct, err := client.New(cfg, client.Options{Scheme: testScheme()})
		if err != nil {
			return err
		}
		m, err := shard.New(direct, direct, shard.Options{
			Ring: ring, Member: member, Namespace: ns, Namespaces: []string{ns},
			Resources:     []schema.GroupVersionKind{gvk},
			LeaseDuration: 6 * time.Second, RenewInterval: time.Second,
		})
		if err != nil {
			return err
		}
		mgr, err := build(ctx, cfg, m)
		if err != nil {
			return err
		}
		if err := mgr.Add(m); err != nil {
			return err
		}
		err = mgr.Start(ctx)
		return errors.Join(err, m.Release(context.Background()))
	}
}

// Sharded replicas of the component operator hand bundles over as the
// ring changes — a fourth replica joins, one leaves gracefully, one is
// killed — and at every step:
//   - every bundle is Ready, owned by the replica the ring of the live
//     replicas gives it, and its objects carry that owner's label;
//   - only bundles the joining or departing replica gains or loses move
//     (consistent hashing, not a reshuffle);
//   - no object is written by two replicas at once: the writers of each
//     bundle's objects, in the order the writes were sent, follow the
//     owners its label named, in the order it named them (a replica that
//     held a bundle only briefly while the ring formed may have written
//     nothing), and no replica writes a bundle again after handing it on;
//
// and no object is lost or leaked: the end state, shard labels aside, is
// the one a single unsharded replica leaves with the same bundles.
func TestShardedReplicasHandOverWithOneWriter(t *testing.T) {
	cp := env.Require(t)
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	releaseBundles(t, cp.Client, ns)
	const n = 24
	labels, err := recordOwners(ctx, cp.RESTConfig(), ns)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]*crash.Run{}
	start := func(member string) {
		h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: shardedBundleOperator(operatorLogger(t), ns, member, nil)})
		if err != nil {
			t.Fatal(err)
		}
		run := h.Start(0)
		runs[member] = run
		t.Cleanup(func() {
			if err := run.Stop(); err != nil {
				t.Errorf("replica %s: %v", member, err)
			}
		})
	}
	for _, m := range []string{"op-0", "op-1", "op-2"} {
		start(m)
	}
	for i := range n {
		if err := cp.Client.Create(ctx, newBundle(ns, bundleName(i), 2)); err != nil {
			t.Fatal(err)
		}
	}

	steps := []struct {
		name    string
		act     func() error
		members []string
		changed string // the replica that joined or left
	}{
		{"three replicas", func() error { return nil }, []string{"op-0", "op-1", "op-2"}, ""},
		{"a fourth joins", func() error { start("op-3"); return nil }, []string{"op-0", "op-1", "op-2", "op-3"}, "op-3"},
		{"one leaves", func() error { return runs["op-1"].Stop() }, []string{"op-0", "op-2", "op-3"}, "op-1"},
		{"one is killed", func() error { return runs["op-2"].Kill() }, []string{"op-0", "op-3"}, "op-2"},
	}
	history := map[string][]string{} // bundle → its owners, in order
	for _, step := range steps {
		began := time.Now()
		if err := step.act(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		ring := shard.NewRing(step.members, 0)
		want := map[string]string{}
		for i := range n {
			name := bundleName(i)
			want[name] = ring.Owner(shard.Key(bundle.GroupVersion.WithKind("Bundle").GroupKind(), ns, name))
		}
		if _, err := testkit.WaitFor(ctx, bundlesOwnedAndReady(cp.Client, ns, want), 3*time.Minute); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		moved := 0
		for name, owner := range want {
			h := history[name]
			if len(h) > 0 && h[len(h)-1] != owner {
				moved++
				if from := h[len(h)-1]; from != step.changed && owner != step.changed {
					t.Errorf("%s: bundle %s moved from %s to %s, neither of them the replica that joined or left (%s)", step.name, name, from, owner, step.changed)
				}
			}
			if len(h) == 0 || h[len(h)-1] != owner {
				history[name] = append(h, owner)
			}
		}
		t.Logf("%s: %d of %d bundles moved, all owned and Ready after %s", step.name, moved, n, time.Since(began).Round(100*time.Millisecond))
	}

	owners, err := testkit.WaitFor(ctx, labels.reached(history), time.Minute)
	if err != nil {
		t.Fatalf("the owner labels watched: %v", err)
	}
	var writes []ownedWrite
	for member, run := range runs {
		for _, w := range run.Writes() {
			if b, ok := bundleOf(w); ok {
				writes = append(writes, ownedWrite{Write: w, bundle: b, member: member})
			}
		}
	}
	slices.SortStableFunc(writes, func(a, b ownedWrite) int { return a.At.Compare(b.At) })
	writers := map[string][]string{}
	for _, w := range writes {
		ws := writers[w.bundle]
		if len(ws) == 0 || ws[len(ws)-1] != w.member {
			writers[w.bundle] = append(ws, w.member)
		}
	}
	for i := range n {
		name := bundleName(i)
		if !isSubsequence(writers[name], owners[name]) {
			t.Errorf("bundle %s: its objects were written by %v, in that order; its owner label named %v: two replicas wrote it in turn", name, writers[name], owners[name])
		}
	}
	problems, err := componentInventoryProblems(ctx, cp.Client, ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	got := withoutShardLabels(stableState(t, cp.Client, ns, componentCapturer))
	want := withoutShardLabels(oneReplicaBundles(t, n))
	if !equalStates(want, got) {
		t.Errorf("the sharded replicas' end state differs from one replica's (-one replica +sharded):\n%s", diffStates(want, got))
	}
}

// oneReplicaBundles converges n bundles in a new namespace with one
// unsharded replica of the component operator and returns the end state.
func oneReplicaBundles(t *testing.T, n int) endState {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	releaseBundles(t, cp.Client, ns)
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: componentOperator(t, ns)})
	if err != nil {
		t.Fatal(err)
	}
	run := h.Start(0)
	t.Cleanup(func() {
		if err := run.Stop(); err != nil {
			t.Errorf("one replica: %v", err)
		}
	})
	for i := range n {
		if err := cp.Client.Create(t.Context(), newBundle(ns, bundleName(i), 2)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := testkit.WaitFor(t.Context(), bundlesJudged(cp.Client, ns, n, bundleReady), 3*time.Minute); err != nil {
		t.Fatalf("one replica: %v", err)
	}
	return stableState(t, cp.Client, ns, componentCapturer)
}

// withoutShardLabels returns s with the shard owner, drain and bucket
// labels removed from every object, the only labels a sharded run adds.
func withoutShardLabels(s endState) endState {
	for _, obj := range s {
		md, _ := obj["metadata"].(map[string]any)
		labels, _ := md["labels"].(map[string]any)
		for k := range labels {
			if strings.HasPrefix(k, commonsv1alpha1.LabelShardPrefix) || strings.HasPrefix(k, commonsv1alpha1.LabelShardDrainPrefix) ||
				strings.HasPrefix(k, commonsv1alpha1.LabelShardBucketPrefix) {
				delete(labels, k)
			}
		}
		if labels != nil && len(labels) == 0 {
			delete(md, "labels")
		}
	}
	return s
}

// ownerLabels records, for each bundle of a namespace, the owners its
// shard label named, in the order it named them, from a watch started
// before the first bundle was created.
type ownerLabels struct {
	mu     sync.Mutex
	owners map[string][]string
}

// recordOwners starts watching the bundles of ns until ctx ends. The
// watch resumes where it broke off, so no change of a label is missed.
func recordOwners(ctx context.Context, cfg *rest.Config, ns string) (*ownerLabels, error) {
	md, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	bundles := md.Resource(bundle.GroupVersion.WithResource("bundles")).Namespace(ns)
	list, err := bundles.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return bundles.Watch(ctx, opts)
		},
	})
	if err != nil {
		return nil, err
	}
	l := &ownerLabels{owners: map[string][]string{}}
	label := commonsv1alpha1.LabelShardPrefix + bundleRing
	go func() {
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				obj, isMeta := ev.Object.(metav1.Object)
				if !isMeta || ev.Type == watch.Error || ev.Type == watch.Bookmark {
					continue
				}
				l.note(obj.GetName(), obj.GetLabels()[label])
			}
		}
	}()
	return l, nil
}

// note records that bundle's label named owner; an empty label or the
// owner already last recorded adds nothing.
func (l *ownerLabels) note(bundle, owner string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h := l.owners[bundle]; owner != "" && (len(h) == 0 || h[len(h)-1] != owner) {
		l.owners[bundle] = append(h, owner)
	}
}

// reached is done when the watch has seen every bundle of want labelled
// with the last owner want lists for it; its value is the owners seen.
func (l *ownerLabels) reached(want map[string][]string) testkit.Condition[map[string][]string] {
	return func(context.Context) (map[string][]string, bool, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		seen := make(map[string][]string, len(l.owners))
		done := true
		for name, h := range want {
			got := l.owners[name]
			if len(got) == 0 || got[len(got)-1] != h[len(h)-1] {
				done = false
			}
		}
		for name, h := range l.owners {
			seen[name] = slices.Clone(h)
		}
		return seen, done, nil
	}
}

// isSubsequence reports whether every element of sub appears in seq, in
// the same order.
func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

// ownedWrite is a write of a bundle's objects by a replica.
type ownedWrite struct {
	crash.Write
	bundle, member string
}

// bundleOf names the bundle whose objects or status w wrote; the ring's
// own writes (the owner and drain labels on the bundle, its finalizer)
// are not the bundle's objects.
func bundleOf(w crash.Write) (string, bool) {
	if w.Resource == "bundles."+bundle.GroupVersion.Group {
		return "", false
	}
	name, _, _ := strings.Cut(w.Name, "-")
	rest := strings.TrimPrefix(w.Name, name+"-")
	num, _, _ := strings.Cut(rest, "-")
	if name != "b" || len(num) != 2 {
		return "", false
	}
	return "b-" + num, true
}

// bundlesOwnedAndReady is done when every bundle of want is Ready, labelled
// with its owner there, and so is its Deployment.
func bundlesOwnedAndReady(c client.Client, ns string, want map[string]string) testkit.Condition[string] {
	label := commonsv1alpha1.LabelShardPrefix + bundleRing
	return func(ctx context.Context) (string, bool, error) {
		var list bundle.BundleList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return "", false, err
		}
		var pending []string
		for i := range list.Items {
			b := &list.Items[i]
			if ok, why := bundleReady(b); !ok {
				pending = append(pending, why)
				continue
			}
			if got := b.Labels[label]; got != want[b.Name] {
				pending = append(pending, fmt.Sprintf("%s: owned by %q, want %s", b.Name, got, want[b.Name]))
				continue
			}
			web := &metav1.PartialObjectMetadata{}
			web.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("Deployment"))
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: b.Name + "-web"}, web); err != nil {
				return "", false, err
			}
			if got := web.Labels[label]; got != want[b.Name] {
				pending = append(pending, fmt.Sprintf("%s-web: labelled with owner %q, want %s", b.Name, got, want[b.Name]))
			}
		}
		if len(list.Items) != len(want) {
			pending = append(pending, fmt.Sprintf("%d bundles, want %d", len(list.Items), len(want)))
		}
		slices.Sort(pending)
		return strings.Join(pending, "; "), len(pending) == 0, nil
	}
}
