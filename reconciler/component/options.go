package component

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/clock"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// Defaults of the zero Options.
const (
	// DefaultRequeueInterval is the time between passes of a ready
	// component.
	DefaultRequeueInterval = 10 * time.Minute
	// DefaultRetryInterval is the longest wait before a failed pass is
	// retried; failures back off towards it from one second.
	DefaultRetryInterval = time.Minute
	// DefaultMaxConcurrentReconciles is how many components are reconciled
	// at once.
	DefaultMaxConcurrentReconciles = 5
	// DefaultMaxTargetClients bounds the clients kept for remote and
	// impersonated targets.
	DefaultMaxTargetClients = 32
)

// Options configures a Reconciler. The zero value of every field is its
// documented default; components override some of them through the
// optional interfaces.
type Options struct {
	// FieldOwner is the field manager of every write. Empty means the
	// reconciler name.
	FieldOwner string
	// Finalizer is put on every component (and on the CRDs and APIServices
	// it applies) until its objects are gone. Empty means
	// "<reconciler name>/finalizer".
	Finalizer string
	// DefaultServiceAccount, when set, is impersonated for components that
	// name no identity of their own: the service account of that name in
	// the component's namespace. Empty means the operator's own identity.
	DefaultServiceAccount string

	// AdoptionPolicy, UpdatePolicy, DeletePolicy and
	// MissingNamespacesPolicy are the defaults for the dependent objects;
	// empty means the object engine's (if-unowned, replace, delete,
	// create). A PolicyConfiguration and per-object annotations override
	// them.
	AdoptionPolicy          apply.AdoptionPolicy
	UpdatePolicy            apply.UpdatePolicy
	DeletePolicy            apply.DeletePolicy
	MissingNamespacesPolicy apply.MissingNamespacesPolicy
	// ReapplyInterval, when positive, rewrites objects that seem unchanged
	// once last written longer ago. Zero means never (watches revert live
	// edits).
	ReapplyInterval time.Duration
	// ObjectEvents records a Normal event on each dependent object the
	// reconciler creates, updates or deletes: one more request to the API
	// server per object written, which a cold converge of many objects
	// feels. False (the default) records only the objects' Warning events
	// (a failed write or delete, fields that cannot change). A component
	// decides for itself with the annotation
	// "<reconciler name>/object-events" (ObjectEventsAnnotation).
	ObjectEvents bool

	// Kinds are the kinds the generator renders. In the component's own
	// cluster they are watched (a live edit is reverted at once, and
	// readiness changes trigger a pass), cached only where they carry the
	// reconciler's owner label (see ManagerOptions), and
	// searched for objects a lost status left behind. They must be served
	// when the manager starts (a CRD the generator itself renders is not a
	// candidate). Kinds not listed are watched too, from the first pass
	// that applied them, and cached without the label filter.
	Kinds []schema.GroupVersionKind

	// StrictKinds refuses to apply an object whose kind is not in Kinds:
	// the component goes to state Error naming the object and its kind,
	// and nothing of the render is applied. Permissions then lists all the
	// rights the operator needs. False (the default) applies any kind the
	// generator renders, watching it from the first pass that applied one.
	StrictKinds bool

	// RequeueInterval is the time between passes of a ready component.
	// Zero means DefaultRequeueInterval.
	RequeueInterval time.Duration
	// RetryInterval is the longest delay before a failed pass is retried.
	// Zero means DefaultRetryInterval.
	RetryInterval time.Duration
	// Timeout is how long objects may take to become ready after they were
	// applied. Zero means the requeue interval in effect.
	Timeout time.Duration

	// MaxConcurrentReconciles is how many components are reconciled at
	// once. Zero means DefaultMaxConcurrentReconciles.
	MaxConcurrentReconciles int
	// MaxTargetClients bounds the clients kept for remote and
	// impersonated targets; the least recently used is closed first. Zero
	// means DefaultMaxTargetClients.
	MaxTargetClients int
	// TargetScheme is the scheme of the clients of remote and impersonated
	// targets. Nil means the manager's scheme.
	TargetScheme *runtime.Scheme
	// Clock gives the time of status timestamps, timeouts and backoff. Nil
	// means the real clock.
	Clock clock.Clock
	// Namespaces restricts the operator to these namespaces: the cache of
	// the manager ManagerOptions configures and the reconciler's own watch
	// of ConfigMaps and Secrets (the references of components) hold only
	// them, so the operator needs no rights outside them. Empty means
	// every namespace.
	Namespaces []string
	// Sharding, when set, makes this replica work on its share of the
	// components only, beside the other replicas of the operator (a
	// *shard.Member of the module github.com/opkit-dev/opkit/shard, run
	// without leader election): ManagerOptions caches only the components
	// the replica owns, a drain request reaches the reconciler although it
	// changes nothing else, and every pass starts by asking Sharding.Owns.
	// Nil means no sharding: the replica reconciles every component.
	Sharding Sharding
}

// Sharding is what the reconciler needs of a sharding member, such as the
// shard module's *Member; see Options.Sharding.
type Sharding = shardgate.Sharding

// withDefaults validates o for reconciler name and fills in defaults. The
// error joins every bad field, each of class failure.ErrInvalid, blamed on
// the operator and named "component.Options.<Field>".
func (o Options) withDefaults(name string) (Options, error) {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "component.Options."+field, format, args...))
	}
	if msgs := validation.IsDNS1123Subdomain(name); len(msgs) > 0 {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "name", "reconciler name %q: %s", name, strings.Join(msgs, "; ")))
	}
	if o.FieldOwner == "" {
		o.FieldOwner = name
	}
	if o.Finalizer == "" {
		o.Finalizer = name + "/finalizer"
	}
	if msgs := validation.IsQualifiedName(o.Finalizer); len(msgs) > 0 {
		bad("Finalizer", "%q: %s", o.Finalizer, strings.Join(msgs, "; "))
	}
	if o.DefaultServiceAccount != "" {
		if msgs := validation.IsDNS1123Subdomain(o.DefaultServiceAccount); len(msgs) > 0 {
			bad("DefaultServiceAccount", "%q: %s", o.DefaultServiceAccount, strings.Join(msgs, "; "))
		}
	}
	o.checkValues(bad)
	errs = append(errs, refs.CheckNamespaces("component.Options.Namespaces", o.Namespaces)...)
	if err := errors.Join(errs...); err != nil {
		return o, err
	}
	return o.defaulted(), nil
}

// checkValues reports, through bad, the policies, durations, kinds and
// limits that are not valid.
func (o Options) checkValues(bad func(field, format string, args ...any)) {
	for _, p := range []struct{ field, value string }{
		{"AdoptionPolicy", string(o.AdoptionPolicy)},
		{"UpdatePolicy", string(o.UpdatePolicy)},
		{"DeletePolicy", string(o.DeletePolicy)},
		{"MissingNamespacesPolicy", string(o.MissingNamespacesPolicy)},
	} {
		if p.value != "" && !slices.Contains(policyValues[p.field], p.value) {
			bad(p.field, "unknown policy %q; one of %s", p.value, strings.Join(policyValues[p.field], ", "))
		}
	}
	for _, d := range []struct {
		field string
		value time.Duration
	}{
		{"ReapplyInterval", o.ReapplyInterval}, {"RequeueInterval", o.RequeueInterval},
		{"RetryInterval", o.RetryInterval}, {"Timeout", o.Timeout},
	} {
		if d.value < 0 {
			bad(d.field, "must not be negative, got %s", d.value)
		}
	}
	for i, k := range o.Kinds {
		if k.Kind == "" || k.Version == "" {
			bad(fmt.Sprintf("Kinds[%d]", i), "%s needs a version and a kind", k)
		}
	}
	if o.MaxConcurrentReconciles < 0 {
		bad("MaxConcurrentReconciles", "%d is negative", o.MaxConcurrentReconciles)
	}
	if o.MaxTargetClients < 0 {
		bad("MaxTargetClients", "%d is negative", o.MaxTargetClients)
	}
}

// defaulted fills in the defaults of the zero values.
func (o Options) defaulted() Options {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	o.RequeueInterval = cmp.Or(o.RequeueInterval, DefaultRequeueInterval)
	o.RetryInterval = cmp.Or(o.RetryInterval, DefaultRetryInterval)
	o.MaxConcurrentReconciles = cmp.Or(o.MaxConcurrentReconciles, DefaultMaxConcurrentReconciles)
	o.MaxTargetClients = cmp.Or(o.MaxTargetClients, DefaultMaxTargetClients)
	return o
}

// policyValues are the accepted policy names, by option field; the
// PolicySpec of a component takes the same.
var policyValues = map[string][]string{
	"AdoptionPolicy": {componentv1alpha1.AdoptionPolicyNever, componentv1alpha1.AdoptionPolicyIfUnowned, componentv1alpha1.AdoptionPolicyAlways},
	"UpdatePolicy": {componentv1alpha1.UpdatePolicyReplace, componentv1alpha1.UpdatePolicySSAMerge,
		componentv1alpha1.UpdatePolicySSAOverride, componentv1alpha1.UpdatePolicyRecreate},
	"DeletePolicy": {componentv1alpha1.DeletePolicyDelete, componentv1alpha1.DeletePolicyOrphan,
		componentv1alpha1.DeletePolicyOrphanOnApply, componentv1alpha1.DeletePolicyOrphanOnDelete},
	"MissingNamespacesPolicy": {componentv1alpha1.MissingNamespacesPolicyCreate, componentv1alpha1.MissingNamespacesPolicyDoNotCreate},
}
