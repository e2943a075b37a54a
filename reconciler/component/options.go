package component

import (
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
	// empty means the object reconciler's (if-unowned, replace, delete,
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

	// Kinds are the kinds the generator renders. In the component's own
	// cluster they are watched (a live edit is reverted at once, and
	// readiness changes trigger a pass), cached only where they carry the
	// reconciler's owner label (pass the same list to ManagerOptions), and
	// searched for objects a lost status left behind. They must be served
	// when the manager starts (a CRD the generator itself renders is not a
	// candidate). Kinds not listed are watched too, from the first pass
	// that applied them, and cached without the label filter.
	Kinds []schema.GroupVersionKind

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
	// Namespaces restricts the reconciler's own watch of ConfigMaps and
	// Secrets (the references of components) to these namespaces. Give
	// the manager's cache the same ones (cache.Options.DefaultNamespaces):
	// an operator restricted both ways needs no rights outside them. Empty
	// means every namespace.
	Namespaces []string
}

// withDefaults validates o for reconciler name and fills in defaults.
// Errors are failure.ErrInvalid, blamed on the operator.
func (o Options) withDefaults(name string) (Options, error) {
	bad := func(field, format string, args ...any) error {
		return failure.Invalid(failure.AuthorOperator, "Options."+field, format, args...)
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return o, failure.Invalid(failure.AuthorOperator, "name", "reconciler name %q: %s", name, strings.Join(errs, "; "))
	}
	if o.FieldOwner == "" {
		o.FieldOwner = name
	}
	if o.Finalizer == "" {
		o.Finalizer = name + "/finalizer"
	}
	if errs := validation.IsQualifiedName(o.Finalizer); len(errs) > 0 {
		return o, bad("Finalizer", "%q: %s", o.Finalizer, strings.Join(errs, "; "))
	}
	if o.DefaultServiceAccount != "" {
		if errs := validation.IsDNS1123Subdomain(o.DefaultServiceAccount); len(errs) > 0 {
			return o, bad("DefaultServiceAccount", "%q: %s", o.DefaultServiceAccount, strings.Join(errs, "; "))
		}
	}
	for _, p := range []struct{ field, value string }{
		{"AdoptionPolicy", string(o.AdoptionPolicy)},
		{"UpdatePolicy", string(o.UpdatePolicy)},
		{"DeletePolicy", string(o.DeletePolicy)},
		{"MissingNamespacesPolicy", string(o.MissingNamespacesPolicy)},
	} {
		if p.value != "" && !slices.Contains(policyValues[p.field], p.value) {
			return o, bad(p.field, "unknown policy %q; one of %s", p.value, strings.Join(policyValues[p.field], ", "))
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
			return o, bad(d.field, "must not be negative, got %s", d.value)
		}
	}
	for i, k := range o.Kinds {
		if k.Kind == "" || k.Version == "" {
			return o, bad("Kinds", "entry %d (%s) needs a version and a kind", i, k)
		}
	}
	seen := map[string]bool{}
	for i, ns := range o.Namespaces {
		field := fmt.Sprintf("Namespaces[%d]", i)
		if seen[ns] {
			return o, bad(field, "%q is listed twice", ns)
		}
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return o, bad(field, "%q is not a namespace name: %s", ns, strings.Join(errs, "; "))
		}
		seen[ns] = true
	}
	if o.MaxConcurrentReconciles < 0 || o.MaxTargetClients < 0 {
		return o, bad("MaxConcurrentReconciles", "limits must not be negative")
	}
	if o.RequeueInterval == 0 {
		o.RequeueInterval = DefaultRequeueInterval
	}
	if o.RetryInterval == 0 {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.MaxConcurrentReconciles == 0 {
		o.MaxConcurrentReconciles = DefaultMaxConcurrentReconciles
	}
	if o.MaxTargetClients == 0 {
		o.MaxTargetClients = DefaultMaxTargetClients
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return o, nil
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
