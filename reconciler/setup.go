package reconciler

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
)

// SetupOptions tunes SetupWithManager. The zero value is usable.
type SetupOptions struct {
	// MaxConcurrentReconciles is how many cluster resources are reconciled
	// at once. Zero means 4.
	MaxConcurrentReconciles int
	// Watches are further watches of the product's own, such as a kind its
	// role provider reads.
	Watches []Watch
}

// Watch is one extra watch: events of Object's kind become reconcile
// requests through Handler.
type Watch struct {
	Object  client.Object
	Handler handler.EventHandler
}

// dependencyIndex indexes cluster resources by the ConfigMaps and Secrets
// they depend on ("Secret/<name>").
const dependencyIndex = ".opkit.dependencies"

// SetupWithManager registers the reconciler as a controller of mgr: it
// watches the cluster resources, every kind it applies (owned objects,
// each through the one informer the object engine reads it from) and the
// ConfigMaps and Secrets the resources depend on (through a cache of their
// names and versions only). Pods are not watched: a change of a pod's
// readiness reaches the reconciler as a change of its StatefulSet's
// status.
func (r *Reconciler[CR]) SetupWithManager(mgr ctrl.Manager, opts SetupOptions) error {
	if opts.MaxConcurrentReconciles == 0 {
		opts.MaxConcurrentReconciles = 4
	}
	ctx := context.Background()
	if err := mgr.GetFieldIndexer().IndexField(ctx, r.cfg.For, dependencyIndex, func(o client.Object) []string {
		cr, ok := o.(CR)
		if !ok {
			return nil
		}
		return r.dependencyKeys(cr)
	}); err != nil {
		return fmt.Errorf("indexing dependencies: %w", err)
	}
	deps, err := r.newDependencyCache(mgr)
	if err != nil {
		return err
	}
	if err := mgr.Add(deps); err != nil {
		return err
	}
	r.deps = deps

	b := ctrl.NewControllerManagedBy(mgr).
		Named(r.cfg.Name).
		For(r.cfg.For).
		WithOptions(controller.Options{MaxConcurrentReconciles: opts.MaxConcurrentReconciles})
	// Every applied kind, watched as the object engine reads it, so the
	// watch and the engine share one informer per kind.
	for _, gvk := range managedKinds(r.cfg.WorkloadRBAC != nil, r.cfg.ExtraKinds) {
		b = b.Owns(apply.InformerObject(gvk, mgr.GetScheme()))
	}
	for _, w := range opts.Watches {
		b = b.Watches(w.Object, w.Handler)
	}
	for _, kind := range []string{"ConfigMap", "Secret"} {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
		b = b.WatchesRawSource(source.Kind(deps, client.Object(m), handler.EnqueueRequestsFromMapFunc(r.dependents(kind))))
	}
	return b.Complete(r)
}

// dependencyKeys lists the index keys of a resource's dependencies,
// the aggregator discovery ConfigMap included.
func (r *Reconciler[CR]) dependencyKeys(cr CR) []string {
	var keys []string
	if r.cfg.Dependencies != nil {
		for _, d := range r.cfg.Dependencies(cr) {
			keys = append(keys, d.Kind+"/"+d.Name)
		}
	}
	if name := cr.GetClusterSpec().VectorAggregatorConfigMapName; name != "" {
		keys = append(keys, "ConfigMap/"+name)
	}
	return keys
}

// dependents maps a ConfigMap or Secret to the resources that depend on it.
func (r *Reconciler[CR]) dependents(kind string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		log := loggerFrom(ctx, r.log).WithValues("kind", kind, "name", o.GetName())
		// The index lives on the typed informer of the resource kind.
		obj, err := r.scheme.New(r.gvk.GroupVersion().WithKind(r.gvk.Kind + "List"))
		if err != nil {
			log.Error(err, "the scheme has no list type for the cluster resource")
			return nil
		}
		list := obj.(client.ObjectList)
		if err := r.client.List(ctx, list, client.InNamespace(o.GetNamespace()),
			client.MatchingFields{dependencyIndex: kind + "/" + o.GetName()}); err != nil {
			log.Error(err, "listing the dependents of an object")
			return nil
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			log.Error(err, "reading the dependents of an object")
			return nil
		}
		reqs := make([]reconcile.Request, 0, len(items))
		for _, it := range items {
			if m, ok := it.(client.Object); ok {
				reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: m.GetNamespace(), Name: m.GetName()}})
			}
		}
		return reqs
	}
}

// newDependencyCache returns a cache of the names and versions of every
// ConfigMap and Secret in the operator's namespaces (nothing else of them
// is kept: about 200 bytes per object), which the dependency watches and
// checks read.
func (r *Reconciler[CR]) newDependencyCache(mgr ctrl.Manager) (cache.Cache, error) {
	return cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient:        mgr.GetHTTPClient(),
		Scheme:            mgr.GetScheme(),
		Mapper:            mgr.GetRESTMapper(),
		DefaultNamespaces: namespaces(r.cfg.Namespaces),
		DefaultTransform: func(in any) (any, error) {
			if m, ok := in.(*metav1.PartialObjectMetadata); ok {
				m.ObjectMeta = metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion}
			}
			return in, nil
		},
	})
}

// managedKinds are the kinds the object engine writes for a product: the
// fixed slots, the ServiceAccount, the workload RBAC when set, and the
// product's extra kinds.
func managedKinds(rbac bool, extra []schema.GroupVersionKind) []schema.GroupVersionKind {
	kinds := []schema.GroupVersionKind{
		corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		corev1.SchemeGroupVersion.WithKind("Service"),
		corev1.SchemeGroupVersion.WithKind("ServiceAccount"),
		appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
		policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	}
	if rbac {
		kinds = append(kinds, rbacv1.SchemeGroupVersion.WithKind("Role"), rbacv1.SchemeGroupVersion.WithKind("RoleBinding"))
	}
	return append(kinds, extra...)
}

// ManagerOptions returns the cache and client options of a manager that
// runs this reconciler: every kind the reconciler applies is cached only
// where it carries the reconciler's owner label, so the cache follows what
// the operator manages rather than the size of the cluster; managed fields
// are stripped from everything cached, and the strings cached objects
// repeat (labels, annotations, owner references, selectors) are held once.
// The reconciler does not cache pods; should the product read pods through
// the manager's client, only those carrying the role groups' managed-by
// label are cached.
//
//	cacheOpts, clientOpts := cfg.ManagerOptions()
//	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
func (c Config[CR]) ManagerOptions() (cache.Options, client.Options) {
	cacheOpts, clientOpts := apply.ManagerOptions(c.Name, managedKinds(c.WorkloadRBAC != nil, c.ExtraKinds)...)
	managedBy := c.ManagedBy
	if managedBy == "" {
		managedBy = commonsv1alpha1.DefaultManagedBy
	}
	cacheOpts.ByObject[&corev1.Pod{}] = cache.ByObject{
		Label: labels.SelectorFromSet(labels.Set{commonsv1alpha1.LabelManagedBy: managedBy}),
	}
	cacheOpts.DefaultTransform = shareStrings(cacheOpts.DefaultTransform)
	cacheOpts.DefaultNamespaces = namespaces(c.Namespaces)
	return cacheOpts, clientOpts
}

// namespaces returns the cache configuration of a list of namespaces: nil,
// every namespace, for an empty list.
func namespaces(names []string) map[string]cache.Config {
	if len(names) == 0 {
		return nil
	}
	out := make(map[string]cache.Config, len(names))
	for _, ns := range names {
		out[ns] = cache.Config{}
	}
	return out
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
