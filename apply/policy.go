package apply

// AdoptionPolicy decides whether a live object that the engine does not
// own yet may be taken over.
type AdoptionPolicy string

const (
	// AdoptionPolicyNever refuses any live object not owned by this owner.
	AdoptionPolicyNever AdoptionPolicy = "never"
	// AdoptionPolicyIfUnowned takes over objects without an owner id and
	// refuses objects of another owner. It is the default.
	AdoptionPolicyIfUnowned AdoptionPolicy = "if-unowned"
	// AdoptionPolicyAlways takes over any live object.
	AdoptionPolicyAlways AdoptionPolicy = "always"
)

// ReconcilePolicy decides when an existing object is written again.
type ReconcilePolicy string

const (
	// ReconcilePolicyOnObjectChange writes when the object's digest changes
	// or the live object drifted. It is the default.
	ReconcilePolicyOnObjectChange ReconcilePolicy = "on-object-change"
	// ReconcilePolicyOnObjectOrComponentChange also writes when
	// Options.ComponentDigest changes.
	ReconcilePolicyOnObjectOrComponentChange ReconcilePolicy = "on-object-or-component-change"
	// ReconcilePolicyOnce creates the object and never updates it.
	ReconcilePolicyOnce ReconcilePolicy = "once"
)

// UpdatePolicy decides how an existing object is written.
type UpdatePolicy string

const (
	// UpdatePolicyReplace sends a full update: labels and the desired
	// content replace the live ones, annotations are merged. It is the
	// default.
	UpdatePolicyReplace UpdatePolicy = "replace"
	// UpdatePolicySSAMerge sends a server-side apply, leaving fields of
	// other managers alone.
	UpdatePolicySSAMerge UpdatePolicy = "ssa-merge"
	// UpdatePolicySSAOverride first moves fields owned by client-side
	// (update) managers such as kubectl to the engine's field manager,
	// then sends a server-side apply, so fields dropped from the desired
	// object are removed.
	UpdatePolicySSAOverride UpdatePolicy = "ssa-override"
	// UpdatePolicyRecreate deletes the object and creates it again.
	UpdatePolicyRecreate UpdatePolicy = "recreate"
)

// DeletePolicy decides whether an object leaving the set, or the whole set
// on Delete, is removed from the cluster.
type DeletePolicy string

const (
	// DeletePolicyDelete deletes the object. It is the default.
	DeletePolicyDelete DeletePolicy = "delete"
	// DeletePolicyOrphan never deletes the object; it is only dropped from
	// the inventory.
	DeletePolicyOrphan DeletePolicy = "orphan"
	// DeletePolicyOrphanOnApply keeps the object when it leaves the set
	// during Apply, and deletes it on Delete.
	DeletePolicyOrphanOnApply DeletePolicy = "orphan-on-apply"
	// DeletePolicyOrphanOnDelete deletes the object when it leaves the set
	// during Apply, and keeps it on Delete.
	DeletePolicyOrphanOnDelete DeletePolicy = "orphan-on-delete"
)

// MissingNamespacesPolicy decides what happens when a namespaced object's
// namespace does not exist and is not part of the set.
type MissingNamespacesPolicy string

const (
	// MissingNamespacesPolicyCreate creates the namespace. It is the default.
	MissingNamespacesPolicyCreate MissingNamespacesPolicy = "create"
	// MissingNamespacesPolicyDoNotCreate fails with a RetriableError until
	// someone else creates it.
	MissingNamespacesPolicyDoNotCreate MissingNamespacesPolicy = "do-not-create"
)

func validAdoption(p AdoptionPolicy) bool {
	return p == AdoptionPolicyNever || p == AdoptionPolicyIfUnowned || p == AdoptionPolicyAlways
}

func validReconcile(p ReconcilePolicy) bool {
	return p == ReconcilePolicyOnObjectChange || p == ReconcilePolicyOnObjectOrComponentChange || p == ReconcilePolicyOnce
}

func validUpdate(p UpdatePolicy) bool {
	return p == UpdatePolicyReplace || p == UpdatePolicySSAMerge || p == UpdatePolicySSAOverride || p == UpdatePolicyRecreate
}

func validDelete(p DeletePolicy) bool {
	return p == DeletePolicyDelete || p == DeletePolicyOrphan || p == DeletePolicyOrphanOnApply || p == DeletePolicyOrphanOnDelete
}

func validMissingNamespaces(p MissingNamespacesPolicy) bool {
	return p == MissingNamespacesPolicyCreate || p == MissingNamespacesPolicyDoNotCreate
}
