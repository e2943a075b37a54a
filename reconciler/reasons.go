package reconciler

// Event reasons the product reconciler records on a cluster resource, and
// condition reasons it sets. Warning events name what the user wrote.
const (
	// ReasonReconcileError: a pass failed; the note is its error.
	ReasonReconcileError = "ReconcileError"
	// ReasonReconcilePanic: a pass panicked; the panic became an error.
	ReasonReconcilePanic = "ReconcilePanic"
	// ReasonInvalidSpec: the resource states something that cannot be
	// reconciled; the note names the field.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonUnknownRole: spec.roles names a role the product does not have.
	ReasonUnknownRole = "UnknownRole"
	// ReasonUnusedRoleDeclaration: the product declares a role the
	// resource does not use (and the declaration is not optional).
	ReasonUnusedRoleDeclaration = "UnusedRoleDeclaration"
	// ReasonDependencyMissing: a ConfigMap or Secret the resource depends
	// on does not exist.
	ReasonDependencyMissing = "DependencyMissing"
	// ReasonImmutableFieldIgnored: a field the API server does not let
	// change differs from what the spec asks; repeated every pass while it
	// does. Also ReconcileComplete's reason while it lasts: the spec is not
	// applied as asked.
	ReasonImmutableFieldIgnored = "ImmutableFieldIgnored"
	// ReasonAffinityOverridden: a layer's config.affinity replaced members
	// a lower layer declared.
	ReasonAffinityOverridden = "AffinityOverridden"
	// ReasonPodOverrideIgnored: a podOverrides layer could not be decoded
	// and was left out; the rest of the group was built.
	ReasonPodOverrideIgnored = "PodOverrideIgnored"
	// ReasonVectorSidecarSkipped: logging asks for the Vector agent but
	// nothing supplies its configuration, so it is not injected.
	ReasonVectorSidecarSkipped = "VectorSidecarSkipped"
	// ReasonOrphanCleanup: a removed role group moved to another stage of
	// its teardown.
	ReasonOrphanCleanup = "OrphanCleanup"
	// ReasonRateLimited: the API server asked to slow down; the pass backs
	// off without reporting the cluster degraded.
	ReasonRateLimited = "RateLimited"

	// ReasonReady: every role group is ready.
	ReasonReady = "Ready"
	// ReasonRollingOut: a StatefulSet is rolling out or scaling.
	ReasonRollingOut = "RollingOut"
	// ReasonPodsFailing: pods of a role group cannot start or keep
	// crashing.
	ReasonPodsFailing = "PodsFailing"
	// ReasonPodsRefused: the API server refused to create pods of a role
	// group (a namespace's Pod Security level, a quota, another admission
	// check); the message is what it said.
	ReasonPodsRefused = "PodsRefused"
	// ReasonHealthCheckFailed: the product's health check failed.
	ReasonHealthCheckFailed = "HealthCheckFailed"
	// ReasonWaiting: the pass waits for something not ready yet.
	ReasonWaiting = "Waiting"
	// ReasonComplete: the pass applied every object of the spec.
	ReasonComplete = "Complete"
	// ReasonFailed: the pass failed; the message says where.
	ReasonFailed = "Failed"
	// ReasonAsExpected: a condition is false because nothing is wrong.
	ReasonAsExpected = "AsExpected"
	// ReasonPaused: reconciliation is paused.
	ReasonPaused = "ReconciliationPaused"
	// ReasonStopped: the cluster is stopped.
	ReasonStopped = "Stopped"
	// ReasonCleanupPending: removed role groups are still being retired.
	ReasonCleanupPending = "CleanupPending"
)
