package component

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/opkit-dev/opkit/api/inventory"
)

func key(name string) types.NamespacedName {
	return types.NamespacedName{Namespace: "shop", Name: name}
}

// watcherWithHandlers returns a watcher whose watches only record their
// handlers, by kind.
func watcherWithHandlers() (*watcher, map[string]handler.TypedEventHandler[client.Object, reconcile.Request]) {
	w := newWatcher("shop.example.com")
	hs := map[string]handler.TypedEventHandler[client.Object, reconcile.Request]{}
	w.watch = func(o client.Object, h handler.TypedEventHandler[client.Object, reconcile.Request]) error {
		hs[o.GetObjectKind().GroupVersionKind().Kind] = h
		return nil
	}
	return w, hs
}

func object(kind, name string, labels, annotations map[string]string) client.Object {
	m := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, Labels: labels, Annotations: annotations}}
	m.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: kind})
	return m
}

// Change hints are handed out only when every kind of the inventory is
// watched and a full pass succeeded since the last watch started.
func TestWatcherHandsOutChangesOnlyWhenComplete(t *testing.T) {
	ctx := context.Background()
	w, hs := watcherWithHandlers()
	cm := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	if err := w.ensure(cm); err != nil {
		t.Fatal(err)
	}
	w.own("hash-of-front", key("front"))
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	defer q.ShutDown()
	inv := &inventory.Inventory{Items: []inventory.Item{{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "a"}}}

	keys, epoch := w.take(key("front"), inv)
	if keys != nil {
		t.Fatalf("hints %v before any full pass", keys)
	}
	w.done(key("front"), epoch, true)

	ownerKey := "shop.example.com/owner-id"
	hs["ConfigMap"].Update(ctx, event.TypedUpdateEvent[client.Object]{ObjectNew: object("ConfigMap", "b", map[string]string{ownerKey: "hash-of-front"}, nil)}, q)
	hs["ConfigMap"].Delete(ctx, event.TypedDeleteEvent[client.Object]{Object: object("ConfigMap", "a", map[string]string{ownerKey: "hash-of-front"}, nil)}, q)
	// Owned by a component this watcher never saw: found by annotation.
	hs["ConfigMap"].Create(ctx, event.TypedCreateEvent[client.Object]{Object: object("ConfigMap", "c",
		map[string]string{ownerKey: "hash-of-other"}, map[string]string{ownerKey: "shop/other"})}, q)
	// Not the reconciler's: ignored.
	hs["ConfigMap"].Create(ctx, event.TypedCreateEvent[client.Object]{Object: object("ConfigMap", "d", nil, nil)}, q)
	if q.Len() != 2 {
		t.Errorf("%d requests queued, want 2 (front, other)", q.Len())
	}

	keys, _ = w.take(key("front"), inv)
	want := []inventory.Key{{Kind: "ConfigMap", Namespace: "shop", Name: "a"}, {Kind: "ConfigMap", Namespace: "shop", Name: "b"}}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
	keys, _ = w.take(key("front"), inv)
	if keys == nil || len(keys) != 0 {
		t.Errorf("hints %v after they were taken, want none (and not nil)", keys)
	}
	other, _ := w.take(key("other"), inv)
	if other != nil {
		t.Errorf("hints %v for a component without a full pass", other)
	}

	// A kind without a watch in the inventory: read everything.
	withSecret := &inventory.Inventory{Items: append(inv.Items, inventory.Item{Version: "v1", Kind: "Secret", Namespace: "shop", Name: "s"})}
	if keys, _ := w.take(key("front"), withSecret); keys != nil {
		t.Errorf("hints %v while a kind of the inventory is not watched", keys)
	}
	// A new watch: its events before it started were missed.
	if err := w.ensure(schema.GroupVersionKind{Version: "v1", Kind: "Secret"}); err != nil {
		t.Fatal(err)
	}
	if keys, _ := w.take(key("front"), withSecret); keys != nil {
		t.Errorf("hints %v after a watch started", keys)
	}
	_, epoch = w.take(key("front"), withSecret)
	w.done(key("front"), epoch, true)
	if keys, _ := w.take(key("front"), withSecret); keys == nil {
		t.Errorf("no hints after a full pass that saw every watch")
	}
	// A failed pass: read everything next time.
	w.done(key("front"), epoch, false)
	if keys, _ := w.take(key("front"), withSecret); keys != nil {
		t.Errorf("hints %v after a failed pass", keys)
	}
}

// The watch event of the reconciler's own write (the object at the
// resourceVersion the write left) queues no pass; someone else's write
// after it does, and so do deletions.
func TestWatcherIgnoresItsOwnWrites(t *testing.T) {
	ctx := context.Background()
	w, hs := watcherWithHandlers()
	if err := w.ensure(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}); err != nil {
		t.Fatal(err)
	}
	w.own("hash-of-front", key("front"))
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	defer q.ShutDown()
	labels := map[string]string{"shop.example.com/owner-id": "hash-of-front"}
	at := func(version string) client.Object {
		o := object("ConfigMap", "settings", labels, nil)
		o.SetResourceVersion(version)
		return o
	}
	w.wrote(key("front"))(inventory.Ref{Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, "7")

	hs["ConfigMap"].Create(ctx, event.TypedCreateEvent[client.Object]{Object: at("7")}, q)
	hs["ConfigMap"].Update(ctx, event.TypedUpdateEvent[client.Object]{ObjectOld: at("7"), ObjectNew: at("7")}, q)
	if q.Len() != 0 {
		t.Fatalf("%d passes queued by the reconciler's own write", q.Len())
	}
	hs["ConfigMap"].Update(ctx, event.TypedUpdateEvent[client.Object]{ObjectOld: at("7"), ObjectNew: at("8")}, q)
	if q.Len() != 1 {
		t.Fatalf("%d passes queued by someone else's write, want 1", q.Len())
	}
	item, _ := q.Get()
	q.Done(item)
	q.Forget(item)
	// Version 7 again cannot be ours: ours was overwritten.
	hs["ConfigMap"].Update(ctx, event.TypedUpdateEvent[client.Object]{ObjectOld: at("8"), ObjectNew: at("7")}, q)
	hs["ConfigMap"].Delete(ctx, event.TypedDeleteEvent[client.Object]{Object: at("7")}, q)
	if q.Len() != 1 {
		t.Errorf("%d passes queued after later writes and a deletion, want 1 (one key)", q.Len())
	}
}
