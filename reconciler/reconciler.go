package reconciler

import (
	"fmt"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/orphan"
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
	engine    *apply.Reconciler
	cleaner   *orphan.Cleaner
	metrics   *metrics
	gvk       schema.GroupVersionKind
	kind      string
	// deps reads dependencies once SetupWithManager started their cache.
	deps client.Reader
	// vectorMemo remembers aggregator addresses per ConfigMap version.
	vectorMemo *addressMemo
	// fresh tells a cached resource older than the reconciler's own last
	// status write.
	fresh *freshness
	// podChecks spaces out the pod listings of unsettled groups.
	podChecks *podChecks
	// serial runs the passes of one resource one at a time, also when
	// Reconcile is called directly beside the manager's workers.
	serial serial.Keys[types.NamespacedName]
	// log is the manager's logger, for work outside a reconcile whose
	// context carries none (the dependency watch's mapping).
	log logr.Logger
}

// New checks cfg and returns a reconciler that reads and writes through
// mgr's client (cached reads), confirms through mgr's API reader, records
// events through mgr's recorder named cfg.Name and registers its metrics
// on controller-runtime's registry. Build mgr with the options
// ManagerOptions returns, so its cache holds only what the operator
// manages. Register the reconciler with SetupWithManager.
func New[CR Object[CR]](mgr manager.Manager, cfg Config[CR]) (*Reconciler[CR], error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.withDefaults()
	gvk, err := apiutil.GVKForObject(cfg.For, mgr.GetScheme())
	if err != nil {
		return nil, fmt.Errorf("reconciler.Config.For: the manager's scheme does not know %T: %w", cfg.For, err)
	}
	engineOpts := cfg.Apply
	engineOpts.Reader = mgr.GetAPIReader()
	engineOpts.Kinds = managedKinds(cfg.WorkloadRBAC != nil, cfg.ExtraKinds)
	engineOpts.Clock = cfg.Clock
	// The engine and the cleaner read every managed kind from the one
	// informer the manager keeps for it.
	cached := newInformerClient(mgr.GetClient(), engineOpts.Kinds)
	engine, err := apply.New(cfg.Name, cached, engineOpts)
	if err != nil {
		return nil, fmt.Errorf("reconciler.Config.Apply: %w", err)
	}
	orphanOpts := cfg.Orphan
	orphanOpts.ManagedBy = cfg.ManagedBy
	orphanOpts.ExtraKinds = append(orphanOpts.ExtraKinds, cfg.ExtraKinds...)
	if orphanOpts.Clock == nil {
		orphanOpts.Clock = cfg.Clock
	}
	cleaner, err := orphan.NewCleaner(cached, mgr.GetAPIReader(), orphanOpts)
	if err != nil {
		return nil, fmt.Errorf("reconciler.Config.Orphan: %w", err)
	}
	if cfg.Sidecars == nil {
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
		client:     mgr.GetClient(),
		apiReader:  mgr.GetAPIReader(),
		scheme:     mgr.GetScheme(),
		log:        mgr.GetLogger().WithValues("controller", cfg.Name),
		recorder:   mgr.GetEventRecorder(cfg.Name),
		engine:     engine,
		cleaner:    cleaner,
		metrics:    m,
		gvk:        gvk,
		kind:       gvk.Kind,
		vectorMemo: newAddressMemo(),
		podChecks:  newPodChecks(cfg.Clock, cfg.ProgressInterval),
		fresh:      newFreshness(),
	}, nil
}

// dependencyReader reads dependencies: the dependency cache once running,
// else the API reader.
func (r *Reconciler[CR]) dependencyReader() client.Reader {
	if r.deps != nil {
		return r.deps
	}
	return r.apiReader
}
