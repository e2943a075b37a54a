package reconciler

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/reconciler/internal/fresh"
	"github.com/opkit-dev/opkit/reconciler/internal/podview"
	"github.com/opkit-dev/opkit/reconciler/internal/serial"
	"github.com/opkit-dev/opkit/sidecar"
)

// Reconciler is the product reconciler: one instance reconciles every
// cluster resource of one kind, each pass composing the opkit modules (the
// config fold, image resolution, the builders, the sidecars, the orphan
// cleaner) and writing every object through the object engine, with the
// record of what it applied kept in the resource's status. It implements
// controller-runtime's reconcile.Reconciler.
type Reconciler[CR Object[CR]] struct {
	cfg       Config[CR]
	client    client.Client
	apiReader client.Reader
	scheme    *runtime.Scheme
	recorder  recorder.EventRecorder
	synced    func(context.Context) bool // binding.synced
	engine    *apply.Engine
	cleaner   *orphan.Cleaner
	// planCleaner is the cleaner a plan runs: its writes are dry runs and
	// its metrics go to a registry of its own.
	planCleaner *orphan.Cleaner
	metrics     *metrics
	gvk         schema.GroupVersionKind
	kind        string
	// offline is set by SetupOffline: the clients read a cluster in
	// memory.
	offline bool
	// deps reads dependencies once SetupWithManager started their cache.
	deps client.Reader
	// vectorMemo remembers aggregator addresses per ConfigMap version.
	vectorMemo *addressMemo
	// fresh tells a cached resource older than the reconciler's own last
	// status write.
	fresh fresh.Versions
	// pace spaces the status writes that only report progress.
	pace *statusPace
	// podChecks spaces out the pod listings of unsettled groups.
	podChecks *podChecks
	// pods holds the pods of this replica's buckets when Config.Sharding
	// is set; nil otherwise, and the manager's cache holds every pod.
	pods *podview.View
	// serial runs the passes of one resource one at a time, also when
	// Reconcile is called directly beside the manager's workers.
	serial serial.Keys[types.NamespacedName]
	// log is the manager's logger, for work outside a reconcile whose
	// context carries none (the dependency watch's mapping).
	log logr.Logger
}

// New checks cfg and returns a reconciler. Build the manager with the
// options ManagerOptions returns, so that its cache holds only what the
// operator manages, then register the reconciler with SetupWithManager: it
// reads and writes through the manager's client (cached reads), confirms
// through its API reader, records events through its recorder named
// cfg.Name, and registers its metrics on controller-runtime's registry. A
// bad cfg is refused with an error naming every bad field.
func New[CR Object[CR]](cfg Config[CR]) (*Reconciler[CR], error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.withDefaults()
	if cfg.Sidecars == nil {
		var err error
		if cfg.Sidecars, err = sidecar.NewRegistry(); err != nil {
			return nil, err
		}
	}
	m, err := newMetrics()
	if err != nil {
		return nil, err
	}
	return &Reconciler[CR]{
		cfg:        cfg,
		metrics:    m,
		vectorMemo: newAddressMemo(),
		podChecks:  newPodChecks(cfg.Clock, cfg.ProgressInterval),
		pace:       newStatusPace(cfg.ProgressWriteEvery),
	}, nil
}

// bind takes from mgr what a pass needs: its clients, scheme and recorder,
// the resource's kind, the object engine and the orphan cleaner.
// With index set, the managed kinds are indexed by owner in the manager's
// cache (apply.IndexOwners), and the kinds the orphan cleaner lists on
// every pass by cluster (orphan.Index).
func (r *Reconciler[CR]) bind(ctx context.Context, mgr manager.Manager, index bool) error {
	b := binding{
		client:    mgr.GetClient(),
		apiReader: mgr.GetAPIReader(),
		scheme:    mgr.GetScheme(),
		log:       mgr.GetLogger(),
		recorder:  mgr.GetEventRecorder(r.cfg.Name),
		synced:    mgr.GetCache().WaitForCacheSync,
	}
	if index {
		b.indexOwners = func(kinds ...schema.GroupVersionKind) ([]schema.GroupVersionKind, error) {
			return apply.IndexOwners(ctx, mgr.GetFieldIndexer(), mgr.GetScheme(), r.cfg.Name, kinds...)
		}
		b.indexClusters = func(objs ...client.Object) (string, error) {
			field := "orphan.opkit.dev/cluster-" + r.cfg.Name
			return field, orphan.Index(ctx, mgr.GetFieldIndexer(), field, objs...)
		}
	}
	return r.bindTo(b)
}

// binding is what a reconciler reads, writes and records through: a
// manager's, or a cluster in memory (SetupOffline).
type binding struct {
	client    client.Client
	apiReader client.Reader
	scheme    *runtime.Scheme
	log       logr.Logger
	recorder  recorder.EventRecorder
	// synced waits until the cache the client reads from has started
	// and synced, or ctx ends (false); nil: nothing to wait for.
	synced func(ctx context.Context) bool
	// indexOwners indexes kinds by owner in the client's cache and
	// returns those it indexed; nil: no index.
	indexOwners func(kinds ...schema.GroupVersionKind) ([]schema.GroupVersionKind, error)
	// indexClusters indexes the informers of objs for the orphan cleaner
	// and returns the index's name; nil: no index.
	indexClusters func(objs ...client.Object) (string, error)
}

func (r *Reconciler[CR]) bindTo(b binding) error {
	cfg := r.cfg
	gvk, err := apiutil.GVKForObject(cfg.For, b.scheme)
	if err != nil {
		return fmt.Errorf("reconciler.Config.For: the manager's scheme does not know %T: %w", cfg.For, err)
	}
	engineOpts := cfg.Apply
	engineOpts.Reader = b.apiReader
	engineOpts.Kinds, engineOpts.IndexedKinds = r.managedKinds(), nil
	if b.indexOwners != nil {
		if engineOpts.IndexedKinds, err = b.indexOwners(engineOpts.Kinds...); err != nil {
			return fmt.Errorf("reconciler: %w", err)
		}
	}
	engineOpts.Clock = cfg.Clock
	engine, err := apply.New(cfg.Name, b.client, engineOpts)
	if err != nil {
		return fmt.Errorf("reconciler.Config.Apply: %w", err)
	}
	orphanOpts := cfg.Orphan
	orphanOpts.ManagedBy = cfg.ManagedBy
	orphanOpts.ExtraKinds = append(slices.Clone(orphanOpts.ExtraKinds), cfg.ExtraKinds...)
	orphanOpts.Clock = cfg.Clock
	if b.indexClusters != nil {
		// The cleaner's kinds are all managed kinds: their informers are
		// the ones InformerObject names.
		var objs []client.Object
		for _, gvk := range orphan.IndexedKinds() {
			objs = append(objs, apply.InformerObject(gvk, b.scheme))
		}
		if orphanOpts.Index, err = b.indexClusters(objs...); err != nil {
			return fmt.Errorf("reconciler: %w", err)
		}
	}
	// The cleaner reads the managed kinds from the informers the engine
	// reads them from.
	cleanerClient := apply.InformerClient(b.client, engineOpts.Kinds)
	cleaner, err := orphan.NewCleaner(cleanerClient, b.apiReader, orphanOpts)
	if err != nil {
		return fmt.Errorf("reconciler.Config.Orphan: %w", err)
	}
	orphanOpts.Registerer = prometheus.NewRegistry()
	if r.planCleaner, err = orphan.NewCleaner(client.NewDryRunClient(cleanerClient), b.apiReader, orphanOpts); err != nil {
		return fmt.Errorf("reconciler.Config.Orphan: %w", err)
	}
	r.client, r.apiReader, r.scheme = b.client, b.apiReader, b.scheme
	r.log = b.log.WithValues("controller", cfg.Name)
	r.recorder = b.recorder
	r.synced = b.synced
	r.engine, r.cleaner = engine, cleaner
	r.gvk, r.kind = gvk, gvk.Kind
	return nil
}

// dependencyReader reads dependencies: the dependency cache once running,
// else the API reader.
func (r *Reconciler[CR]) dependencyReader() client.Reader {
	if r.deps != nil {
		return r.deps
	}
	return r.apiReader
}
