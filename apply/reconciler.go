package apply

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DefaultReapplyInterval is the reapply interval when Options leaves it zero.
const DefaultReapplyInterval = time.Hour

// Options configures a Reconciler. The zero value of every field is its
// documented default.
type Options struct {
	// FieldOwner is the field manager of every write. Empty means the
	// reconciler name.
	FieldOwner string
	// Finalizer is put on the CRDs and APIServices of the set. Empty means
	// the reconciler name.
	Finalizer string
	// Reader reads live objects when the client's view may be stale (before
	// a delete, and to confirm an apparent drift). Nil means the client.
	// Pass an uncached reader when the client is a manager's cached client.
	Reader client.Reader
	// Recorder, when non-nil, receives an event per dependent object created,
	// updated, deleted or failed, regarding that object.
	Recorder events.EventRecorder
	// DisableEvents turns the events off even with a Recorder.
	DisableEvents bool

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
	// ReapplyInterval forces a write of an object last written longer ago.
	// Zero means DefaultReapplyInterval; negative disables it.
	ReapplyInterval time.Duration

	// DefaultNamespace is given to namespaced objects without a namespace.
	// Empty means such objects are invalid.
	DefaultNamespace string
	// ComponentDigest is the digest of the owner's inputs; objects with
	// ReconcilePolicyOnObjectOrComponentChange are written again when it
	// changes.
	ComponentDigest string
	// AdditionalManagedTypes are types, besides those served by CRDs and
	// APIServices of the set, whose foreign instances block deletion
	// (IsDeletionAllowed). Kind "*" stands for every kind of a group;
	// Version is ignored.
	AdditionalManagedTypes []TypeInfo

	// Discovery, when non-nil, lists the kinds of managed types given with
	// Kind "*" (the types an APIService serves) for IsDeletionAllowed and for
	// deleting such a type. Nil means those types are not checked.
	Discovery discovery.DiscoveryInterface

	// Clock gives the time of LastAppliedAt and the reapply interval. Nil
	// means the real clock.
	Clock clock.PassiveClock
}

// Reconciler applies sets of objects for one owner and deletes them again.
// It keeps no state between calls: everything it remembers is in the
// Inventory the caller passes. A Reconciler is safe for concurrent use on
// different inventories.
type Reconciler struct {
	name    string
	prefix  string
	ownerID string
	client  client.Client
	reader  client.Reader
	// separateReader is set when reader is not the client itself.
	separateReader bool
	mapper         meta.RESTMapper
	opts           Options
}

// New returns a Reconciler. name is a fully qualified name such as
// "zookeeper.operators.example.com": the prefix of the annotations it reads
// and writes and the default field owner and finalizer. ownerID identifies
// the owner of the objects (for instance "<namespace>/<name>" of a custom
// resource); objects carrying another owner id are not touched unless the
// adoption policy says so. The client's scheme must know the typed objects
// passed to Apply; its REST mapper decides object scopes.
func New(name, ownerID string, c client.Client, opts Options) (*Reconciler, error) {
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return nil, fmt.Errorf("reconciler name %q: %s", name, strings.Join(errs, "; "))
	}
	if ownerID == "" {
		return nil, errors.New("owner id must not be empty")
	}
	if c == nil {
		return nil, errors.New("client must not be nil")
	}
	if opts.FieldOwner == "" {
		opts.FieldOwner = name
	}
	if opts.Finalizer == "" {
		opts.Finalizer = name
	}
	separateReader := opts.Reader != nil
	if !separateReader {
		opts.Reader = c
	}
	if opts.AdoptionPolicy == "" {
		opts.AdoptionPolicy = AdoptionPolicyIfUnowned
	}
	if opts.ReconcilePolicy == "" {
		opts.ReconcilePolicy = ReconcilePolicyOnObjectChange
	}
	if opts.UpdatePolicy == "" {
		opts.UpdatePolicy = UpdatePolicyReplace
	}
	if opts.DeletePolicy == "" {
		opts.DeletePolicy = DeletePolicyDelete
	}
	if opts.MissingNamespacesPolicy == "" {
		opts.MissingNamespacesPolicy = MissingNamespacesPolicyCreate
	}
	if opts.ReapplyInterval == 0 {
		opts.ReapplyInterval = DefaultReapplyInterval
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	switch {
	case !validAdoption(opts.AdoptionPolicy):
		return nil, fmt.Errorf("unknown adoption policy %q", opts.AdoptionPolicy)
	case !validReconcile(opts.ReconcilePolicy):
		return nil, fmt.Errorf("unknown reconcile policy %q", opts.ReconcilePolicy)
	case !validUpdate(opts.UpdatePolicy):
		return nil, fmt.Errorf("unknown update policy %q", opts.UpdatePolicy)
	case !validDelete(opts.DeletePolicy):
		return nil, fmt.Errorf("unknown delete policy %q", opts.DeletePolicy)
	case !validMissingNamespaces(opts.MissingNamespacesPolicy):
		return nil, fmt.Errorf("unknown missing-namespaces policy %q", opts.MissingNamespacesPolicy)
	}
	return &Reconciler{
		name:           name,
		prefix:         name + "/",
		ownerID:        ownerID,
		client:         c,
		reader:         opts.Reader,
		separateReader: separateReader,
		mapper:         c.RESTMapper(),
		opts:           opts,
	}, nil
}

// Name returns the reconciler's name.
func (r *Reconciler) Name() string { return r.name }

// AnnotationKey returns the full key of one of the Annotation* names, e.g.
// "<name>/apply-order".
func (r *Reconciler) AnnotationKey(suffix string) string { return r.prefix + suffix }
