package component

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/internal/fresh"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
	"github.com/opkit-dev/opkit/reconciler/internal/serial"
)

// Reconciler reconciles the components of one type T: it renders each
// component's objects with a generator and applies them through the
// object engine (package apply), in the component's own cluster or a
// remote one, keeping the component's Status. It implements
// controller-runtime's reconcile.Reconciler; register it with
// SetupWithManager.
type Reconciler[T Component] struct {
	name      string
	generator generators.Generator
	opts      Options
	hooks     hooks[T]
	triggers  chan event.TypedGenericEvent[types.NamespacedName]
	fresh     fresh.Versions
	// serial runs the passes of one component one at a time, also when
	// Reconcile is called directly beside the manager's workers.
	serial  serial.Keys[types.NamespacedName]
	backoff *backoff
	events  *eventMemory

	// Set by SetupWithManager.
	mu        sync.Mutex
	ready     bool
	planOnly  bool // set by SetupForPlanning: Plan works, Reconcile does not
	offline   bool // set by SetupOffline: Render works, against objects in memory
	client    client.Client
	apiReader client.Reader
	scheme    *runtime.Scheme
	config    *rest.Config
	recorder  recorder.EventRecorder
	discovery discovery.CachedDiscoveryInterface
	synced    func(context.Context) bool // binding.synced
	gvk       schema.GroupVersionKind
	local     *target
	// indexed are the kinds of Options.Kinds the manager's cache indexes
	// by owner (apply.IndexOwners), for the local target's engines.
	indexed []schema.GroupVersionKind
	// engines are the local target's object engines (engine.go).
	enginesMu sync.Mutex
	engines   map[engineKey]*apply.Engine
	targets   *targetCache
	deps      *refs.Data
	records   *records
	watch     *watcher
	metrics   *metrics
	// log is the manager's logger, for work outside a reconcile whose
	// context carries none (the reference watch's mapping).
	log logr.Logger
}

// triggerBuffer is how many outside triggers may wait for the controller.
const triggerBuffer = 1024

// New returns a reconciler of components of type T (a pointer to a struct
// type, such as *v1alpha1.WebShop) named name, rendering with generator.
// name is a fully qualified name such as "webshop.operators.example.com":
// the default field owner and finalizer, the controller's name and the
// prefix of every annotation and label on the dependent objects; it must
// be unique among the operators of a cluster. Bad arguments are
// failure.ErrInvalid, blamed on the operator.
func New[T Component](name string, generator generators.Generator, opts Options) (*Reconciler[T], error) {
	opts, err := opts.withDefaults(name)
	if err != nil {
		return nil, err
	}
	if generator == nil {
		return nil, failure.Invalid(failure.AuthorOperator, "generator", "must not be nil")
	}
	if _, err := newObject[T](); err != nil {
		return nil, err
	}
	return &Reconciler[T]{
		name:      name,
		generator: generator,
		opts:      opts,
		triggers:  make(chan event.TypedGenericEvent[types.NamespacedName], triggerBuffer),
		backoff:   newBackoff(opts.RetryInterval),
		events:    newEventMemory(),
	}, nil
}

// Name returns the reconciler's name.
func (r *Reconciler[T]) Name() string { return r.name }

// newObject returns a new, empty T. T must be a pointer to a struct whose
// GetSpec returns a non-nil pointer to a struct and whose GetStatus
// returns a non-nil status.
func newObject[T Component]() (T, error) {
	var zero T
	t := reflect.TypeOf(zero)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return zero, failure.Invalid(failure.AuthorOperator, "T", "the component type %v must be a pointer to a struct", t)
	}
	obj, ok := reflect.New(t.Elem()).Interface().(T)
	if !ok {
		return zero, failure.Invalid(failure.AuthorOperator, "T", "%v does not implement Component", t)
	}
	spec := reflect.ValueOf(obj.GetSpec())
	if !spec.IsValid() || spec.Kind() != reflect.Pointer || spec.IsNil() || spec.Elem().Kind() != reflect.Struct {
		return zero, failure.Invalid(failure.AuthorOperator, "T", "%v.GetSpec must return a non-nil pointer to a struct, got %T", t, obj.GetSpec())
	}
	if obj.GetStatus() == nil {
		return zero, failure.Invalid(failure.AuthorOperator, "T", "%v.GetStatus must return a non-nil *Status", t)
	}
	return obj, nil
}

// Trigger asks for a pass of the component namespace/name, from outside
// the cluster's events (a webhook, a timer, another controller). It waits
// while the trigger buffer is full, until ctx ends.
func (r *Reconciler[T]) Trigger(ctx context.Context, namespace, name string) error {
	select {
	case r.triggers <- event.TypedGenericEvent[types.NamespacedName]{Object: types.NamespacedName{Namespace: namespace, Name: name}}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("triggering %s/%s: %w", namespace, name, ctx.Err())
	}
}

var _ reconcile.Reconciler = &Reconciler[Component]{}
