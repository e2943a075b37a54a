package component

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
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
	"sigs.k8s.io/controller-runtime/pkg/recorder"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/offline"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// referenceIndex indexes components by the ConfigMaps and Secrets they
// reference ("<Kind>/<namespace>/<name>").
const referenceIndex = ".opkit.component.references"

// ManagerOptions returns the cache and client options of the manager
// that runs the reconciler: the cache holds only objects of Options.Kinds
// that carry the reconciler's owner label, without managed fields and with
// the strings they repeat held once (see apply.ManagerOptions), so it grows
// with what the operator manages rather than with the cluster. The
// components' inventories are kept at their length, their items sharing
// the groups, kinds and namespaces they repeat. The cache is restricted to
// Options.Namespaces when they are set. With Options.Sharding it holds
// only the components this replica owns.
//
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
func (r *Reconciler[T]) ManagerOptions() (cache.Options, client.Options) {
	cacheOpts, clientOpts := apply.ManagerOptions(r.name, r.opts.Kinds...)
	cacheOpts.DefaultTransform = shareStatus(cacheOpts.DefaultTransform)
	cacheOpts.DefaultNamespaces = refs.Namespaces(r.opts.Namespaces)
	if r.opts.Sharding != nil {
		// The objects follow their component's owner (flow_apply.go):
		// each replica caches those of its share.
		shardgate.Narrow(cacheOpts.ByObject, r.opts.Sharding.Selector())
		if obj, err := newObject[T](); err == nil {
			cacheOpts.ByObject[obj] = cache.ByObject{Label: r.opts.Sharding.Selector()}
		}
	}
	return cacheOpts, clientOpts
}

// SetupWithManager registers the reconciler as a controller of mgr named
// after the reconciler, with Options.MaxConcurrentReconciles workers. See
// SetupWithManagerAndBuilder.
func (r *Reconciler[T]) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	return r.SetupWithManagerAndBuilder(ctx, mgr, ctrl.NewControllerManagedBy(mgr).
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
// mgr's scheme must know the core group and T; it should be built with
// the options ManagerOptions returns. It may be called once.
func (r *Reconciler[T]) SetupWithManagerAndBuilder(ctx context.Context, mgr ctrl.Manager, blder *builder.Builder) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ready || r.planOnly || r.offline {
		return errors.New("component reconciler: set up already")
	}
	if err := r.bind(mgr); err != nil {
		return err
	}
	obj, _ := newObject[T]()
	versions, err := refs.NewCache(mgr, r.opts.Namespaces)
	if err != nil {
		return err
	}
	if err := mgr.Add(versions); err != nil {
		return err
	}
	r.deps = refs.NewData(versions, r.apiReader)
	if err := mgr.GetFieldIndexer().IndexField(ctx, obj, referenceIndex, r.referenceKeys); err != nil {
		return fmt.Errorf("component reconciler: indexing references: %w", err)
	}
	// A new component's first pass searches its kinds for objects of
	// its own: through the index, not by testing every cached object.
	if r.indexed, err = apply.IndexOwners(ctx, mgr.GetFieldIndexer(), mgr.GetScheme(), r.name, r.opts.Kinds...); err != nil {
		return fmt.Errorf("component reconciler: %w", err)
	}

	blder = blder.Named(r.name).
		For(obj, builder.WithPredicates(r.forPredicate())).
		WatchesRawSource(source.Channel(r.triggers, handler.TypedFuncs[types.NamespacedName, reconcile.Request]{
			GenericFunc: func(_ context.Context, e event.TypedGenericEvent[types.NamespacedName], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				q.Add(reconcile.Request{NamespacedName: e.Object})
			},
		}, source.WithBufferSize[types.NamespacedName, reconcile.Request](triggerBuffer)))
	listGVK := r.gvk.GroupVersion().WithKind(r.gvk.Kind + "List")
	for _, kind := range refs.Kinds {
		key := func(o client.Object) string { return kind + "/" + o.GetNamespace() + "/" + o.GetName() }
		blder = blder.WatchesRawSource(source.Kind(versions, refs.Object(kind),
			handler.EnqueueRequestsFromMapFunc(refs.Referring(r.client, listGVK, referenceIndex, key, false, r.log))))
	}
	var pass reconcile.Reconciler = r
	if r.opts.Sharding != nil {
		pass = &shardgate.Gate{Sharding: r.opts.Sharding, Reader: r.client, Next: r, New: func() client.Object {
			o, _ := newObject[T]()
			return o
		}}
	}
	c, err := blder.Build(pass)
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

// bind takes from mgr what a pass needs: the component's kind, the
// clients, scheme, recorder and discovery, metrics, and the cache of
// remote and impersonated targets.
func (r *Reconciler[T]) bind(mgr ctrl.Manager) error {
	dc, err := discovery.NewDiscoveryClientForConfigAndClient(mgr.GetConfig(), mgr.GetHTTPClient())
	if err != nil {
		return fmt.Errorf("component reconciler: building the discovery client: %w", err)
	}
	err = r.bindTo(binding{
		client:    mgr.GetClient(),
		apiReader: mgr.GetAPIReader(),
		scheme:    mgr.GetScheme(),
		config:    mgr.GetConfig(),
		log:       mgr.GetLogger(),
		recorder:  mgr.GetEventRecorder(r.name),
		discovery: newCachedDiscovery(dc),
		synced:    mgr.GetCache().WaitForCacheSync,
	})
	if err != nil {
		return err
	}
	return mgr.Add(r.targets)
}

// binding is what a reconciler reads, writes and records through: a
// manager's, or a cluster in memory (SetupOffline), which has no config
// and no discovery.
type binding struct {
	client    client.Client
	apiReader client.Reader
	scheme    *runtime.Scheme
	config    *rest.Config
	log       logr.Logger
	recorder  recorder.EventRecorder
	discovery discovery.CachedDiscoveryInterface
	// synced waits until the cache the client reads from has started
	// and synced, or ctx ends (false); nil: nothing to wait for.
	synced func(ctx context.Context) bool
}

func (r *Reconciler[T]) bindTo(b binding) error {
	obj, _ := newObject[T]()
	gvk, err := apiutil.GVKForObject(obj, b.scheme)
	if err != nil {
		return fmt.Errorf("component reconciler: the manager's scheme does not know %T: %w", obj, err)
	}
	if r.metrics, err = newMetrics(); err != nil {
		return fmt.Errorf("component reconciler: registering metrics: %w", err)
	}
	r.gvk = gvk
	r.client, r.apiReader, r.scheme, r.config = b.client, b.apiReader, b.scheme, b.config
	r.log = b.log.WithValues("controller", r.name)
	r.recorder = b.recorder
	r.discovery = b.discovery
	r.synced = b.synced
	r.local = &target{client: r.client, reader: r.apiReader, discovery: r.discovery, recorder: r.recorder, cached: true, close: func() {}}
	scheme := r.opts.TargetScheme
	if scheme == nil {
		scheme = b.scheme
	}
	r.targets = newTargetCache(r.opts.MaxTargetClients, scheme, r.name)
	r.records = newRecords(r.name, gvk.Kind, r.client, r.apiReader, b.scheme)
	return nil
}

// forPredicate is componentChanged, and with sharding also a requested
// drain, which the pass start acknowledges.
func (r *Reconciler[T]) forPredicate() predicate.Predicate {
	return shardgate.AdmitDrains(r.componentChanged(), r.opts.Sharding)
}

// componentChanged lets through what can change a pass's outcome (the
// spec, input annotations, finalizers, the deletion), a status write that
// lost the state or the inventory (a backup restored, a status wiped by
// hand: the pass rebuilds it at once), and the update a pass that found a
// stale copy waits for.
func (r *Reconciler[T]) componentChanged() predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			o, n := e.ObjectOld, e.ObjectNew
			return o.GetGeneration() != n.GetGeneration() ||
				!maps.Equal(r.inputAnnotations(o), r.inputAnnotations(n)) ||
				statusLost(o, n) ||
				!slices.Equal(o.GetFinalizers(), n.GetFinalizers()) ||
				!o.GetDeletionTimestamp().Equal(n.GetDeletionTimestamp()) ||
				r.fresh.Awaited(client.ObjectKeyFromObject(n), n.GetUID(), n.GetResourceVersion())
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
	found, _, err := findReferences(c.GetSpec(), "spec")
	if err != nil {
		return nil
	}
	ns := referenceNamespace(c)
	var keys []string
	for _, f := range found {
		if f.ref != nil {
			obj := f.ref.Referenced()
			keys = append(keys, obj.Kind+"/"+ns+"/"+obj.Name)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// statusLost reports a status that had a state or an inventory and has
// none any more.
func statusLost(o, n client.Object) bool {
	oc, ok1 := o.(Component)
	nc, ok2 := n.(Component)
	if !ok1 || !ok2 {
		return false
	}
	os, ns := oc.GetStatus(), nc.GetStatus()
	return os.State != "" && ns.State == "" ||
		len(os.Inventory.Items)+len(os.Inventory.Packed) > 0 && len(ns.Inventory.Items)+len(ns.Inventory.Packed) == 0
}

// SetupForPlanning binds the reconciler to mgr for Plan and PlanDelete
// alone: no controller is registered, so starting mgr reconciles nothing.
// A tool that plans with its user's identity (a command-line client, say)
// builds mgr from the user's kubeconfig with the options ManagerOptions
// returns, calls SetupForPlanning, starts mgr and calls Plan. The user
// needs the rights to read what a pass reads (the component, its
// references and render record, the kinds it applies) and, since the API
// server authorises a dry run as the write itself, the rights of the
// writes it would make. It may be called once, instead of SetupWithManager.
func (r *Reconciler[T]) SetupForPlanning(mgr ctrl.Manager) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ready || r.planOnly || r.offline {
		return errors.New("component reconciler: set up already")
	}
	if err := r.bind(mgr); err != nil {
		return err
	}
	versions, err := refs.NewCache(mgr, r.opts.Namespaces)
	if err != nil {
		return err
	}
	if err := mgr.Add(versions); err != nil {
		return err
	}
	r.deps = refs.NewData(versions, r.apiReader)
	r.planOnly = true
	return nil
}

// SetupOffline binds the reconciler to a cluster that exists only in
// memory, for Render alone: no API server is asked anything, so a
// component renders without a cluster, as a chart does with helm
// template. Every read finds the given objects and nothing else: the
// component's status and render record as objects hold them (none: a new
// component, rendered afresh, so random values are new), its references
// and what templates look up. The component's target (a kubeconfig, an
// impersonated user) is not contacted, and generators get no discovery:
// they use their default capabilities. scheme must know every object's
// kind; two objects of one kind and name are refused. Plan and PlanDelete
// need a cluster and fail on a reconciler set up this way. It may be
// called once, instead of SetupWithManager or SetupForPlanning.
func (r *Reconciler[T]) SetupOffline(scheme *runtime.Scheme, objects ...client.Object) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ready || r.planOnly || r.offline {
		return errors.New("component reconciler: set up already")
	}
	c, err := offline.New(scheme, objects)
	if err != nil {
		return fmt.Errorf("component reconciler: the offline cluster: %w", err)
	}
	if err := r.bindTo(binding{client: c.Client, apiReader: c.Client, scheme: scheme, log: logr.Discard(), recorder: c.Recorder}); err != nil {
		return err
	}
	r.deps = refs.NewData(nil, r.apiReader)
	r.offline = true
	return nil
}
