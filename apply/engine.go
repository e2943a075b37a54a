package apply

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
)

// DefaultConcurrency is the number of objects of one wave written at once
// when Options.Concurrency is zero.
const DefaultConcurrency = 8

// Options configures an Engine: what holds for every owner it serves.
// The zero value of every field is its documented default.
type Options struct {
	// FieldOwner is the field manager of every write. Empty means the
	// engine name.
	FieldOwner string
	// Finalizer is put on the CRDs and APIServices of the set. Empty means
	// the engine name.
	Finalizer string
	// Reader reads live objects when the client's view may be stale (before
	// a delete, and to confirm an apparent drift). Nil means the client.
	// Pass an uncached reader when the client is a manager's cached client.
	Reader client.Reader
	// Recorder, when non-nil, receives an event per dependent object created,
	// updated, deleted or failed, regarding that object.
	Recorder events.EventRecorder

	// AdoptionPolicy is the default for objects without the annotation.
	// Empty means AdoptionPolicyIfUnowned.
	AdoptionPolicy AdoptionPolicy
	// ReconcilePolicy is the default for objects without the annotation.
	// Empty means ReconcilePolicyOnObjectChange.
	ReconcilePolicy ReconcilePolicy
	// UpdatePolicy is the default for objects without the annotation. Empty
	// means UpdatePolicyReplace.
	UpdatePolicy UpdatePolicy
	// DeletePolicy is the default for objects without the annotation. Empty
	// means DeletePolicyDelete.
	DeletePolicy DeletePolicy
	// MissingNamespacesPolicy applies to every object. Empty means
	// MissingNamespacesPolicyCreate.
	MissingNamespacesPolicy MissingNamespacesPolicy
	// ReapplyInterval, when positive, rewrites an unchanged object last
	// written longer ago, as a safety net for changes live-change detection
	// cannot see. At most ReapplyBatch objects are rewritten per pass, so the
	// rewrites spread over passes. Zero (the default) or negative turns it
	// off: an unchanged object is never written. The per-object annotation
	// AnnotationReapplyInterval overrides it.
	ReapplyInterval time.Duration
	// ReapplyBatch bounds the periodic rewrites per pass. Zero means 10.
	ReapplyBatch int
	// Concurrency is the number of objects of one wave read and written at
	// once. Zero means DefaultConcurrency; 1 applies one object after the
	// other. Results are the same, in the same order, whatever it is.
	Concurrency int

	// Kinds are the kinds the engine manages. Objects of these kinds
	// carrying an owner's label but missing from its inventory (a status
	// write that was lost, say) are taken into the inventory on the next
	// pass, and deleted if they are not in the set: a lost inventory leaks
	// nothing. Nil turns the search off. ManagerOptions takes the same list.
	Kinds []schema.GroupVersionKind
	// IndexedKinds are the kinds of Kinds whose cache indexes its objects
	// by owner, as IndexOwners returns them: the search reads an owner's
	// objects of these kinds from the index, and tests the owner label of
	// every cached object for the others. Nil: no index.
	IndexedKinds []schema.GroupVersionKind
	// AdditionalManagedTypes are types, besides those served by CRDs and
	// APIServices of the set, whose foreign instances block deletion
	// (IsDeletionAllowed). Kind "*" stands for every kind of a group;
	// Version is ignored.
	AdditionalManagedTypes []TypeInfo
	// Discovery, when non-nil, lists the kinds of managed types given with
	// Kind "*" (the types an APIService serves) for IsDeletionAllowed and for
	// deleting such a type. Nil means those types are not checked.
	Discovery discovery.DiscoveryInterface
	// ObjectsAuthor is whom an invalid object of the set is blamed on. Zero
	// means failure.AuthorOperator: the objects come from the operator's
	// code or generator. Set failure.AuthorUser when the objects are
	// manifests the cluster resource's author wrote.
	ObjectsAuthor failure.Author

	// Clock gives the time of the reapply interval. Nil means the real
	// clock.
	Clock clock.PassiveClock
}

// Owner is what one pass is for: the owner of the objects and the values
// that belong to it. One Engine serves every owner of a controller; each
// call names its owner.
type Owner struct {
	// ID identifies the owner of one inventory (for instance the UID of a
	// custom resource); objects carrying another owner id are not touched
	// unless the adoption policy says so. A caller keeping several
	// inventories for one custom resource (one per role group, say) gives
	// each its own ID ("<uid>/server/default"): with Options.Kinds, a pass
	// takes every labelled object of its ID missing from its inventory for
	// its own. Required.
	ID string
	// DefaultNamespace is given to namespaced objects without a namespace.
	// Empty means such objects are invalid.
	DefaultNamespace string
	// ComponentDigest is the digest of the owner's inputs; objects with
	// ReconcilePolicyOnObjectOrComponentChange are written again when it
	// changes.
	ComponentDigest string
}

// Engine applies sets of objects and deletes them again, for any number
// of owners. It keeps no state between calls: everything it remembers is in
// the inventory the caller passes. An Engine is safe for concurrent use
// on different inventories.
type Engine struct {
	name   string
	prefix string
	client client.Client
	reader client.Reader
	// separateReader is set when reader is not the client itself.
	separateReader bool
	mapper         meta.RESTMapper
	opts           Options
	// known are the versions of objects the engine last wrote or took as
	// its own: expectations a lagging cache is checked against, and
	// versions the inventory does not record; see known.go.
	known knownVersions
	// ignored remembers the immutable fields unchanged objects' desired
	// states state differently (immutable_memo.go).
	ignored ignoredMemo
	// prints are the inventories the last passes of each owner left; see
	// strays.go.
	prints inventoryPrints
}

// New returns an Engine. name is a fully qualified name such as
// "zookeeper.operators.example.com": the prefix of the annotations it reads
// and writes and the default field owner and finalizer. The client's scheme
// must know the typed objects passed to Apply; its REST mapper decides
// object scopes. Bad options are the operator's mistake: the error is of
// class failure.ErrInvalid, blamed on failure.AuthorOperator.
func New(name string, c client.Client, opts Options) (*Engine, error) {
	bad := func(field, format string, args ...any) error {
		return failure.Invalid(failure.AuthorOperator, field, format, args...)
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return nil, bad("name", "engine name %q: %s", name, strings.Join(errs, "; "))
	}
	if c == nil {
		return nil, bad("client", "must not be nil")
	}
	opts = opts.defaulted(name)
	if err := opts.check(); err != nil {
		return nil, err
	}
	if len(opts.Kinds) > 0 {
		// Every read of a managed kind in the one type its informer holds.
		c = InformerClient(c, opts.Kinds)
	}
	separateReader := opts.Reader != nil
	if !separateReader {
		opts.Reader = c
	}
	return &Engine{
		name:           name,
		prefix:         name + "/",
		client:         c,
		reader:         opts.Reader,
		separateReader: separateReader,
		mapper:         c.RESTMapper(),
		opts:           opts,
		known:          knownVersions{clock: opts.Clock, swept: opts.Clock.Now()},
	}, nil
}

// Name returns the engine's name.
func (r *Engine) Name() string { return r.name }

// AnnotationKey returns the full key of one of the Annotation* names, e.g.
// "<name>/apply-order".
func (r *Engine) AnnotationKey(suffix string) string { return r.prefix + suffix }

// defaulted fills in the defaults of the zero values; the engine's name
// is the default field owner and finalizer.
func (o Options) defaulted(name string) Options {
	if o.FieldOwner == "" {
		o.FieldOwner = name
	}
	if o.Finalizer == "" {
		o.Finalizer = name
	}
	if o.AdoptionPolicy == "" {
		o.AdoptionPolicy = AdoptionPolicyIfUnowned
	}
	if o.ReconcilePolicy == "" {
		o.ReconcilePolicy = ReconcilePolicyOnObjectChange
	}
	if o.UpdatePolicy == "" {
		o.UpdatePolicy = UpdatePolicyReplace
	}
	if o.DeletePolicy == "" {
		o.DeletePolicy = DeletePolicyDelete
	}
	if o.MissingNamespacesPolicy == "" {
		o.MissingNamespacesPolicy = MissingNamespacesPolicyCreate
	}
	if o.ReapplyBatch <= 0 {
		o.ReapplyBatch = 10
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.ObjectsAuthor == failure.AuthorUnknown {
		o.ObjectsAuthor = failure.AuthorOperator
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	return o
}

// check refuses unknown policies, naming every bad field.
func (o Options) check() error {
	var errs []error
	for _, c := range []struct {
		field, value string
		valid        bool
	}{
		{"AdoptionPolicy", string(o.AdoptionPolicy), validAdoption(o.AdoptionPolicy)},
		{"ReconcilePolicy", string(o.ReconcilePolicy), validReconcile(o.ReconcilePolicy)},
		{"UpdatePolicy", string(o.UpdatePolicy), validUpdate(o.UpdatePolicy)},
		{"DeletePolicy", string(o.DeletePolicy), validDelete(o.DeletePolicy)},
		{"MissingNamespacesPolicy", string(o.MissingNamespacesPolicy), validMissingNamespaces(o.MissingNamespacesPolicy)},
	} {
		if !c.valid {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, c.field, "unknown %s %q", policyNoun(c.field), c.value))
		}
	}
	for i, gvk := range o.IndexedKinds {
		if !slices.Contains(o.Kinds, gvk) {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, fmt.Sprintf("IndexedKinds[%d]", i), "%s is not one of Kinds", gvk))
		}
	}
	return errors.Join(errs...)
}

// policyNoun turns "AdoptionPolicy" into "adoption policy".
func policyNoun(field string) string {
	name := strings.TrimSuffix(field, "Policy")
	if name == "MissingNamespaces" {
		name = "missing-namespaces"
	}
	return strings.ToLower(name) + " policy"
}

// checkOwner validates the per-call owner.
func checkOwner(o Owner) error {
	if o.ID == "" {
		return failure.Invalid(failure.AuthorOperator, "Owner.ID", "must not be empty")
	}
	return nil
}
