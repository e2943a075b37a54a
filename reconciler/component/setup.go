package component

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/opkit-dev/opkit/apply"
)

// referenceIndex indexes components by the ConfigMaps and Secrets they
// reference ("<Kind>/<namespace>/<name>").
const referenceIndex = ".opkit.component.references"

// ManagerOptions returns the cache and client options of a manager that
// runs a component reconciler named name whose generator renders kinds
// (the same list as Options.Kinds): the cache holds only objects of those
// kinds that carry the reconciler's owner label, without managed fields,
// so it grows with what the operator manages rather than with the cluster.
// See apply.ManagerOptions. To restrict the operator to some namespaces,
// set cacheOpts.DefaultNamespaces and Options.Namespaces to the same ones.
//
//	cacheOpts, clientOpts := component.ManagerOptions(name, kinds...)
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
func ManagerOptions(name string, kinds ...schema.GroupVersionKind) (cache.Options, client.Options) {
	return apply.ManagerOptions(name, kinds...)
}

// SetupWithManager registers the reconciler as a controller of mgr named
// after the reconciler, with Options.MaxConcurrentReconciles workers. See
// SetupWithManagerAndBuilder.
func (r *Reconciler[T]) SetupWithManager(mgr ctrl.Manager) error {
	return r.SetupWithManagerAndBuilder(mgr, ctrl.NewControllerManagedBy(mgr).
		WithOptions(controller.Options{MaxConcurrentReconciles: r.opts.MaxConcurrentReconciles}))
}

// SetupWithManagerAndBuilder registers the reconciler with mgr through
// blder, on which it calls Named, For and Build: use it to add predicates,
// watches or controller options of your own. It watches
//
//   - the components (changes of generation, annotations, finalizers and
//     deletion; the reconciler's own status writes are not passes);
//   - the ConfigMaps and Secrets the components reference, through a cache
//     of their names and versions only: a change re-renders the components
//     that reference them;
//   - the dependent objects of Options.Kinds, and of every other kind from
//     the first pass that applied one: an edit is reverted, a readiness
//     change seen, at once;
//   - Trigger's channel.
//
// mgr's scheme must know the core group and T; its client should be built
// with ManagerOptions. It may be called once.
func (r *Reconciler[T]) SetupWithManagerAndBuilder(mgr ctrl.Manager, blder *builder.Builder) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ready {
		return errors.New("component reconciler: set up already")
	}
	obj, _ := newObject[T]()
	gvk, err := apiutil.GVKForObject(obj, mgr.GetScheme())
	if err != nil {
		return fmt.Errorf("component reconciler: the manager's scheme does not know %T: %w", obj, err)
	}
	dc, err := discovery.NewDiscoveryClientForConfigAndClient(mgr.GetConfig(), mgr.GetHTTPClient())
	if err != nil {
		return fmt.Errorf("component reconciler: building the discovery client: %w", err)
	}
	if r.metrics, err = newMetrics(); err != nil {
		return fmt.Errorf("component reconciler: registering metrics: %w", err)
	}
	labels, err := apply.New(r.name, mgr.GetClient(), apply.Options{})
	if err != nil {
		return err
	}
	r.labels = labels
	r.gvk = gvk
	r.client, r.apiReader, r.scheme, r.config = mgr.GetClient(), mgr.GetAPIReader(), mgr.GetScheme(), mgr.GetConfig()
	r.log = mgr.GetLogger().WithValues("controller", r.name)
	r.recorder = mgr.GetEventRecorder(r.name)
	r.discovery = memory.NewMemCacheClient(dc)
	r.local = &target{client: r.client, reader: r.apiReader, discovery: r.discovery, recorder: r.recorder, cached: true, close: func() {}}
	scheme := r.opts.TargetScheme
	if scheme == nil {
		scheme = mgr.GetScheme()
	}
	r.targets = newTargetCache(r.opts.MaxTargetClients, scheme, r.name)
	if err := mgr.Add(r.targets); err != nil {
		return err
	}

	versions, err := newVersionCache(mgr, r.opts.Namespaces)
	if err != nil {
		return err
	}
	if err := mgr.Add(versions); err != nil {
		return err
	}
	r.deps = newDependencies(versions, r.apiReader)
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), obj, referenceIndex, r.referenceKeys); err != nil {
		return fmt.Errorf("component reconciler: indexing references: %w", err)
	}

	blder = blder.Named(r.name).
		For(obj, builder.WithPredicates(r.componentChanged())).
		WatchesRawSource(source.Channel(r.triggers, handler.TypedFuncs[types.NamespacedName, reconcile.Request]{
			GenericFunc: func(_ context.Context, e event.TypedGenericEvent[types.NamespacedName], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				q.Add(reconcile.Request{NamespacedName: e.Object})
			},
		}, source.WithBufferSize[types.NamespacedName, reconcile.Request](triggerBuffer)))
	for _, kind := range []string{"ConfigMap", "Secret"} {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
		blder = blder.WatchesRawSource(source.Kind(versions, client.Object(m), handler.EnqueueRequestsFromMapFunc(r.referencing(kind))))
	}
	c, err := blder.Build(r)
	if err != nil {
		return fmt.Errorf("component reconciler: building the controller: %w", err)
	}
	r.watch = newWatcher(r.name)
	r.watch.scheme = mgr.GetScheme()
	r.watch.watch = func(o client.Object, h handler.TypedEventHandler[client.Object, reconcile.Request]) error {
		return c.Watch(source.Kind(mgr.GetCache(), o, h))
	}
	for _, k := range r.opts.Kinds {
		if err := r.watch.ensure(k); err != nil {
			return fmt.Errorf("component reconciler: watching %s: %w", k, err)
		}
	}
	r.ready = true
	return nil
}

// componentChanged lets through what can change a pass's outcome, and the
// update a pass that found a stale copy waits for.
func (r *Reconciler[T]) componentChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			o, n := e.ObjectOld, e.ObjectNew
			return o.GetGeneration() != n.GetGeneration() ||
				!maps.Equal(o.GetAnnotations(), n.GetAnnotations()) ||
				!slices.Equal(o.GetFinalizers(), n.GetFinalizers()) ||
				!o.GetDeletionTimestamp().Equal(n.GetDeletionTimestamp()) ||
				r.fresh.awaited(client.ObjectKeyFromObject(n), n.GetUID(), n.GetResourceVersion())
		},
	}
}

// referenceKeys are the index keys of the ConfigMaps and Secrets a
// component references.
func (r *Reconciler[T]) referenceKeys(o client.Object) []string {
	c, ok := o.(T)
	if !ok {
		return nil
	}
	refs, _, err := findReferences(c.GetSpec(), "spec")
	if err != nil {
		return nil
	}
	ns := referenceNamespace(c)
	var keys []string
	for _, f := range refs {
		if f.ref != nil {
			obj := f.ref.Referenced()
			keys = append(keys, obj.Kind+"/"+ns+"/"+obj.Name)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// referencing maps a ConfigMap or Secret to the components that reference
// it.
func (r *Reconciler[T]) referencing(kind string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		log := loggerFrom(ctx, r.log).WithValues("kind", kind, "object", client.ObjectKeyFromObject(o))
		obj, err := r.scheme.New(r.gvk.GroupVersion().WithKind(r.gvk.Kind + "List"))
		if err != nil {
			log.Error(err, "the scheme has no list type of the component")
			return nil
		}
		list := obj.(client.ObjectList)
		if err := r.client.List(ctx, list, client.MatchingFields{referenceIndex: kind + "/" + o.GetNamespace() + "/" + o.GetName()}); err != nil {
			log.Error(err, "listing the components that reference an object")
			return nil
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			log.Error(err, "reading the components that reference an object")
			return nil
		}
		reqs := make([]reconcile.Request, 0, len(items))
		for _, it := range items {
			if m, ok := it.(client.Object); ok {
				reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(m)})
			}
		}
		return reqs
	}
}

// newVersionCache returns a cache of the names and versions of ConfigMaps
// and Secrets in namespaces, every namespace when empty (nothing else of
// them is kept: about 200 bytes per object), which the reference watches
// and the data memory read.
func newVersionCache(mgr ctrl.Manager, namespaces []string) (cache.Cache, error) {
	var byNamespace map[string]cache.Config
	if len(namespaces) > 0 {
		byNamespace = make(map[string]cache.Config, len(namespaces))
		for _, ns := range namespaces {
			byNamespace[ns] = cache.Config{}
		}
	}
	return cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient:        mgr.GetHTTPClient(),
		Scheme:            mgr.GetScheme(),
		Mapper:            mgr.GetRESTMapper(),
		DefaultNamespaces: byNamespace,
		DefaultTransform: func(in any) (any, error) {
			if m, ok := in.(*metav1.PartialObjectMetadata); ok {
				m.ObjectMeta = metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion}
			}
			return in, nil
		},
	})
}
