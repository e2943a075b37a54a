package component

import (
	"context"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

// watcher follows the dependent objects in the manager's cluster: an event
// of a watched kind enqueues the owning component and records the object
// as changed, so that the next pass reads (and, if someone edited it,
// reverts) only what changed, and reacts to readiness at once.
type watcher struct {
	ownerKey string
	// scheme is the scheme of the client the object engine reads the
	// component's own cluster with; it decides the informer types.
	scheme *runtime.Scheme
	// watch starts a watch of a kind; nil in tests without a manager.
	watch func(obj client.Object, h handler.TypedEventHandler[client.Object, reconcile.Request]) error

	mu    sync.Mutex
	kinds map[schema.GroupKind]bool
	// epoch counts the watches started: a pass that started before the
	// latest may have missed events of its kind.
	epoch   int
	pending map[types.NamespacedName]*hints
	// owners maps owner label values to components.
	owners map[string]types.NamespacedName
}

// hints are the changes seen for one component since its last pass.
type hints struct {
	keys map[inventory.Key]bool
	// written are the versions the component's passes wrote, per object.
	written map[inventory.Key]string
	// primed is set once a full pass succeeded at epoch.
	primed bool
	epoch  int
}

func newWatcher(name string) *watcher {
	return &watcher{
		ownerKey: name + "/" + apply.AnnotationOwnerID,
		kinds:    map[schema.GroupKind]bool{},
		pending:  map[types.NamespacedName]*hints{},
		owners:   map[string]types.NamespacedName{},
	}
}

// ownerID is the owner id of a component's objects: "<namespace>/<name>",
// or the name of a cluster-scoped component.
func ownerID(key types.NamespacedName) string {
	if key.Namespace == "" {
		return key.Name
	}
	return key.Namespace + "/" + key.Name
}

// own registers the owner label value of a component.
func (w *watcher) own(labelValue string, key types.NamespacedName) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.owners[labelValue] = key
}

// ensure watches the kind of gvk unless it is watched already.
func (w *watcher) ensure(gvk schema.GroupVersionKind) error {
	w.mu.Lock()
	if w.watch == nil || w.kinds[gvk.GroupKind()] {
		w.mu.Unlock()
		return nil
	}
	w.kinds[gvk.GroupKind()] = true
	w.epoch++
	w.mu.Unlock()
	gk := gvk.GroupKind()
	h := handler.TypedFuncs[client.Object, reconcile.Request]{
		CreateFunc: func(_ context.Context, e event.TypedCreateEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			w.changed(gk, e.Object, q, true)
		},
		UpdateFunc: func(_ context.Context, e event.TypedUpdateEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			w.changed(gk, e.ObjectNew, q, true)
		},
		DeleteFunc: func(_ context.Context, e event.TypedDeleteEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			w.changed(gk, e.Object, q, false)
		},
	}
	if err := w.watch(apply.InformerObject(gvk, w.scheme), h); err != nil {
		w.mu.Lock()
		delete(w.kinds, gk)
		w.mu.Unlock()
		return err
	}
	return nil
}

// changed records an event of an object and enqueues its component,
// unless the event is the echo of the component's own write (mayEcho: a
// create or update).
func (w *watcher) changed(gk schema.GroupKind, o client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request], mayEcho bool) {
	key, ok := w.ownerOf(o)
	if !ok {
		return
	}
	k := inventory.KeyOf(gk, o.GetNamespace(), o.GetName())
	w.mu.Lock()
	if mayEcho && w.echo(key, k, o) {
		w.mu.Unlock()
		return
	}
	h := w.hintsOf(key)
	h.keys[k] = true
	w.mu.Unlock()
	q.Add(reconcile.Request{NamespacedName: key})
}

// ownerOf finds the component of an object: by its owner label (of a
// component this reconciler saw), else by its owner annotation.
func (w *watcher) ownerOf(o client.Object) (types.NamespacedName, bool) {
	v, ok := o.GetLabels()[w.ownerKey]
	if !ok {
		return types.NamespacedName{}, false
	}
	w.mu.Lock()
	key, known := w.owners[v]
	w.mu.Unlock()
	if known {
		return key, true
	}
	id := o.GetAnnotations()[w.ownerKey]
	if id == "" {
		return types.NamespacedName{}, false
	}
	if ns, name, found := strings.Cut(id, "/"); found {
		return types.NamespacedName{Namespace: ns, Name: name}, true
	}
	return types.NamespacedName{Name: id}, true
}

func (w *watcher) hintsOf(key types.NamespacedName) *hints {
	h := w.pending[key]
	if h == nil {
		h = &hints{keys: map[inventory.Key]bool{}}
		w.pending[key] = h
	}
	return h
}

// take returns the objects that changed since the component's last pass,
// sorted, or nil when the pass must read every object: before a full pass
// succeeded, after a watch started since, or while the inventory holds a
// kind without a watch. It also returns the epoch to pass to done.
func (w *watcher) take(key types.NamespacedName, inv *inventory.Inventory) ([]inventory.Key, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	h := w.hintsOf(key)
	keys := h.keys
	h.keys = map[inventory.Key]bool{}
	if !h.primed || h.epoch != w.epoch {
		return nil, w.epoch
	}
	for i := range inv.Items {
		if !w.kinds[inv.Items[i].Key().GroupKind()] {
			return nil, w.epoch
		}
	}
	out := make([]inventory.Key, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	slices.SortFunc(out, inventory.Key.Compare)
	return out, w.epoch
}

// done records the end of a pass that started at epoch: ok when it read
// what it had to without failing.
func (w *watcher) done(key types.NamespacedName, epoch int, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	h := w.hintsOf(key)
	h.primed, h.epoch = ok, epoch
}

// forget drops what is kept of a component that is gone.
func (w *watcher) forget(key types.NamespacedName, labelValue string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.pending, key)
	delete(w.owners, labelValue)
}

// wrote returns the function a pass of the component key gives the object
// engine (apply.PassOptions.Written): it remembers the resourceVersion each
// write left, so that the watch event of the write, which reports nothing
// new, queues no pass.
func (w *watcher) wrote(key types.NamespacedName) func(inventory.Ref, string) {
	return func(ref inventory.Ref, version string) {
		w.mu.Lock()
		defer w.mu.Unlock()
		h := w.hintsOf(key)
		if h.written == nil {
			h.written = map[inventory.Key]string{}
		}
		h.written[ref.Key()] = version
	}
}

// echo reports whether o, seen by a watch, is at the version a pass of its
// component wrote: the event of the reconciler's own write.
func (w *watcher) echo(key types.NamespacedName, k inventory.Key, o client.Object) bool {
	h := w.pending[key]
	if h == nil || h.written == nil {
		return false
	}
	v, ok := h.written[k]
	if !ok {
		return false
	}
	if v != o.GetResourceVersion() {
		// Someone else's write: the next one is not ours either.
		delete(h.written, k)
		return false
	}
	return true
}
