package v1alpha1

// Condition types the product reconciler sets on a cluster resource's
// status. Each carries the generation it was computed for.
const (
	// ConditionAvailable is true when every role group's StatefulSet has
	// all its replicas ready (and the product's health check, if any,
	// passes).
	ConditionAvailable = "Available"
	// ConditionProgressing is true while a role group's StatefulSet rolls
	// out or scales.
	ConditionProgressing = "Progressing"
	// ConditionDegraded is true when a pass failed (a user's mistake, a
	// missing dependency, pods failing); never for a rate limit or a wait.
	ConditionDegraded = "Degraded"
	// ConditionReconcileComplete is true when the last pass applied every
	// object of the spec.
	ConditionReconcileComplete = "ReconcileComplete"
	// ConditionWaiting is true while the pass waits for something that is
	// not ready yet (not a fault).
	ConditionWaiting = "Waiting"
	// ConditionPaused is true while spec.clusterOperation.reconciliationPaused
	// holds the cluster still.
	ConditionPaused = "Paused"
	// ConditionStopped is true while spec.clusterOperation.stopped keeps
	// every role group at zero replicas.
	ConditionStopped = "Stopped"
	// ConditionOrphanCleanupPending is true while role groups removed from
	// the spec are still being retired.
	ConditionOrphanCleanupPending = "OrphanCleanupPending"
)

// ConditionTypes returns every condition type above, sorted.
func ConditionTypes() []string {
	return []string{
		ConditionAvailable, ConditionDegraded, ConditionOrphanCleanupPending, ConditionPaused,
		ConditionProgressing, ConditionReconcileComplete, ConditionStopped, ConditionWaiting,
	}
}
