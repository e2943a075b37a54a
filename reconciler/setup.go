package reconciler

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/offline"
	"github.com/opkit-dev/opkit/reconciler/internal/podview"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// dependencyIndex indexes cluster resources by the ConfigMaps and Secrets
// they depend on ("Secret/<name>").
const dependencyIndex = ".opkit.dependencies"

// SetupWithManager registers the reconciler as a controller of mgr named
// Config.Name with Config.MaxConcurrentReconciles workers. See
// SetupWithManagerAndBuilder.
func (r *Reconciler[CR]) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	return r.SetupWithManagerAndBuilder(ctx, mgr, ctrl.NewControllerManagedBy(mgr).
		WithOptions(controller.Options{MaxConcurrentReconciles: r.cfg.MaxConcurrentReconciles}))
}

// SetupWithManagerAndBuilder registers the reconciler with mgr through
// blder, on which it calls Named, For, Owns, Watches and Complete: use it
// to add predicates, watches or controller options of your own. It binds
// the reconciler to mgr (clients, scheme, recorder, the object engine and
// the orphan cleaner) and watches the cluster resources, every kind it
// applies (owned objects, each through the one informer the object engine
// reads it from), Config.Watches, and the ConfigMaps and Secrets the
// resources depend on (through a cache of their names and versions only).
// The reconciler's own status writes to a cluster resource bring no pass
// (its spec, metadata, a lost inventory do), nor does a workload's status
// write that leaves it as ready or not as it was
// (apply.IgnoreStatusProgress): while a group rolls out, the progress
// interval paces its passes. Pods are cached (the health check reads them)
// but not watched: a change of a pod's readiness reaches the reconciler as
// a change of its StatefulSet's readiness. With Config.Sharding, the replica caches the pods
// of its buckets only, in a cache of its own that follows the ring. mgr
// should be built with the options
// ManagerOptions returns. It may be called once.
func (r *Reconciler[CR]) SetupWithManagerAndBuilder(ctx context.Context, mgr ctrl.Manager, blder *builder.Builder) error {
	if r.engine != nil {
		return errors.New("reconciler: set up already")
	}
	if err := r.bind(ctx, mgr, true); err != nil {
		return err
	}
	if err := mgr.GetFieldIndexer().IndexField(ctx, r.cfg.For, dependencyIndex, func(o client.Object) []string {
		cr, ok := o.(CR)
		if !ok {
			return nil
		}
		return r.dependencyKeys(cr)
	}); err != nil {
		return fmt.Errorf("indexing dependencies: %w", err)
	}
	deps, err := refs.NewCache(mgr, r.cfg.Namespaces)
	if err != nil {
		return err
	}
	if err := mgr.Add(deps); err != nil {
		return err
	}
	r.deps = deps
	if err := r.cachePods(ctx, mgr); err != nil {
		return err
	}

	b := blder.Named(r.cfg.Name).For(r.cfg.For, builder.WithPredicates(r.forPredicate()))
	// Every applied kind, watched as the object engine reads it, so the
	// watch and the engine share one informer per kind. A workload's
	// status write that leaves it as ready (or not) as it was brings no
	// pass: its progress is reported on the progress interval.
	for _, gvk := range r.managedKinds() {
		b = b.Owns(apply.InformerObject(gvk, mgr.GetScheme()), builder.WithPredicates(apply.IgnoreStatusProgress(gvk)))
	}
	for _, w := range r.cfg.Watches {
		b = b.Watches(w.Object, w.Handler)
	}
	listGVK := r.gvk.GroupVersion().WithKind(r.gvk.Kind + "List")
	for _, kind := range refs.Kinds {
		key := func(o client.Object) string { return kind + "/" + o.GetName() }
		b = b.WatchesRawSource(source.Kind(deps, refs.Object(kind),
			handler.EnqueueRequestsFromMapFunc(refs.Referring(r.client, listGVK, dependencyIndex, key, true, r.log))))
	}
	if r.cfg.Sharding != nil {
		return b.Complete(&shardgate.Gate{
			Sharding: r.cfg.Sharding, Reader: r.client, Next: r,
			New: func() client.Object { return r.cfg.For.DeepCopy() },
		})
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

// managedKinds are the kinds the object engine writes for the product:
// the fixed slots, the ServiceAccount, the workload RBAC when set, and the
// product's extra kinds.
func (r *Reconciler[CR]) managedKinds() []schema.GroupVersionKind {
	kinds := []schema.GroupVersionKind{
		corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		corev1.SchemeGroupVersion.WithKind("Service"),
		corev1.SchemeGroupVersion.WithKind("ServiceAccount"),
		appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
		policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	}
	if r.cfg.WorkloadRBAC != nil {
		kinds = append(kinds, rbacv1.SchemeGroupVersion.WithKind("Role"), rbacv1.SchemeGroupVersion.WithKind("RoleBinding"))
	}
	return append(kinds, r.cfg.ExtraKinds...)
}

// ManagerOptions returns the cache and client options of a manager that
// runs this reconciler: every kind the reconciler applies is cached only
// where it carries the reconciler's owner label, so the cache follows what
// the operator manages rather than the size of the cluster; managed fields
// are stripped from everything cached, and the strings cached objects
// repeat (labels, annotations, owner references, selectors) are held once.
// Pods, trimmed to their metadata and the state of their containers (a
// product that needs a pod whole reads it through the manager's API
// reader), and volume claims, as metadata, are cached only where they
// carry the role groups' managed-by label: the health check lists an
// unsettled group's pods from the cache, and the orphan cleaner a retired
// group's claims.
//
// The cache is restricted to Config.Namespaces when they are set. With
// Config.Sharding, it holds only the cluster resources this replica owns.
//
//	cacheOpts, clientOpts := r.ManagerOptions()
//	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
func (r *Reconciler[CR]) ManagerOptions() (cache.Options, client.Options) {
	c := r.cfg
	cacheOpts, clientOpts := apply.ManagerOptions(c.Name, r.managedKinds()...)
	if c.Sharding != nil {
		// The objects follow their resource's owner (scope.go): each
		// replica caches those of its share.
		shardgate.Narrow(cacheOpts.ByObject, c.Sharding.Selector())
	}
	ours := r.managedBy()
	cacheOpts.ByObject[&corev1.Pod{}] = cache.ByObject{Label: ours}
	claims := &metav1.PartialObjectMetadata{}
	claims.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"))
	cacheOpts.ByObject[claims] = cache.ByObject{Label: ours}
	cacheOpts.DefaultTransform = shareStatus(cacheOpts.DefaultTransform)
	cacheOpts.DefaultNamespaces = refs.Namespaces(c.Namespaces)
	if c.Sharding != nil {
		cacheOpts.ByObject[c.For] = cache.ByObject{Label: c.Sharding.Selector()}
	}
	return cacheOpts, clientOpts
}

// managedBy selects the objects and pods of the operator by its managed-by
// label.
func (r *Reconciler[CR]) managedBy() labels.Selector {
	managedBy := r.cfg.ManagedBy
	if managedBy == "" {
		managedBy = commonsv1alpha1.DefaultManagedBy
	}
	return labels.SelectorFromSet(labels.Set{commonsv1alpha1.LabelManagedBy: managedBy})
}

// cachePods starts caching the pods the health check reads. Without
// sharding, the informer of the manager's cache (ManagerOptions) starts
// with the cache, not in the middle of the first converge that needs it.
// With Config.Sharding, a pod view holds the pods of the replica's
// buckets only (the manager's pod informer is never started).
func (r *Reconciler[CR]) cachePods(ctx context.Context, mgr ctrl.Manager) error {
	if r.cfg.Sharding == nil {
		if _, err := mgr.GetCache().GetInformer(ctx, &corev1.Pod{}, cache.BlockUntilSynced(false)); err != nil {
			return fmt.Errorf("caching pods: %w", err)
		}
		return nil
	}
	strip := cache.TransformStripManagedFields()
	view, err := podview.New(podview.Options{
		Config: mgr.GetConfig(), Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper(),
		Namespaces:  refs.Namespaces(r.cfg.Namespaces),
		Selector:    r.managedBy(),
		BucketLabel: r.cfg.Sharding.BucketLabel(),
		Buckets:     r.cfg.Sharding.Buckets,
		Transform: func(in any) (any, error) {
			out, err := strip(in)
			if pod, ok := out.(*corev1.Pod); ok && err == nil {
				slimPod(pod)
			}
			return out, err
		},
		Reader: mgr.GetAPIReader(),
	})
	if err != nil {
		return err
	}
	if err := mgr.Add(view); err != nil {
		return fmt.Errorf("caching pods: %w", err)
	}
	r.pods = view
	return nil
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

// SetupForPlanning binds the reconciler to mgr for Plan alone: no
// controller is registered, so starting mgr reconciles nothing. A tool
// that plans with its user's identity (a command-line client, say) builds
// mgr from the user's kubeconfig with the options ManagerOptions returns,
// calls SetupForPlanning, starts mgr and calls Plan. The user needs the
// rights to read what a pass reads (the resource, the kinds it applies)
// and, since the API server authorises a dry run as the write itself, the
// rights of the writes it would make. It may be called once, instead of
// SetupWithManager.
func (r *Reconciler[CR]) SetupForPlanning(mgr ctrl.Manager) error {
	if r.engine != nil {
		return errors.New("reconciler: set up already")
	}
	return r.bind(context.Background(), mgr, false)
}

// SetupOffline binds the reconciler to a cluster that exists only in
// memory, for Render alone: no API server is asked anything. Every read a
// pass makes finds the given objects and nothing else — the resource's
// status as the copy of it among objects has it (none: a new resource),
// its dependencies (the Secrets and ConfigMaps it references, the
// resources it depends on) and the product's own reads. scheme must know
// every object's kind; two objects of one kind and name are refused. Plan
// needs a cluster and fails on a reconciler set up this way. It may be
// called once, instead of SetupWithManager or SetupForPlanning.
func (r *Reconciler[CR]) SetupOffline(scheme *runtime.Scheme, objects ...client.Object) error {
	if r.engine != nil {
		return errors.New("reconciler: set up already")
	}
	c, err := offline.New(scheme, objects)
	if err != nil {
		return fmt.Errorf("reconciler: the offline cluster: %w", err)
	}
	r.offline = true
	return r.bindTo(binding{client: c.Client, apiReader: c.Client, scheme: scheme, log: logr.Discard(), recorder: c.Recorder})
}
