package v1alpha1

// The recommended Kubernetes labels opkit puts on every object it builds and
// on pod templates.
const (
	// LabelName is the product name.
	LabelName = "app.kubernetes.io/name"
	// LabelInstance is the cluster resource's name; part of selectors.
	LabelInstance = "app.kubernetes.io/instance"
	// LabelVersion is the product version.
	LabelVersion = "app.kubernetes.io/version"
	// LabelComponent is the role name; part of selectors.
	LabelComponent = "app.kubernetes.io/component"
	// LabelRoleGroup is the role-group name.
	LabelRoleGroup = "app.kubernetes.io/role-group"
	// LabelManagedBy names the managing operator; part of selectors.
	LabelManagedBy = "app.kubernetes.io/managed-by"
)

// DefaultManagedBy is the LabelManagedBy value when the operator names none.
const DefaultManagedBy = "opkit"

// Slot marker labels. Their presence or value selects an object for a
// reclaim, so they are withheld from the labels a cluster resource passes to
// its workloads (see ReservedLabelKeys).
const (
	// LabelMetricsService marks a role group's metrics Service.
	LabelMetricsService = "metrics.opkit.dev/service"
	// LabelRolePodDisruptionBudget marks a role's PodDisruptionBudget; its
	// value is the role name.
	LabelRolePodDisruptionBudget = "pdb.opkit.dev/role"
	// LabelRoleGroupPodDisruptionBudget marks a role group's
	// PodDisruptionBudget; its value is the role-group name.
	LabelRoleGroupPodDisruptionBudget = "pdb.opkit.dev/role-group"
)

// ReservedLabelKeys returns the slot marker label keys, sorted. A cluster
// resource's own labels with these keys are never copied to the objects
// built for it.
func ReservedLabelKeys() []string {
	return []string{LabelMetricsService, LabelRolePodDisruptionBudget, LabelRoleGroupPodDisruptionBudget}
}

// Annotations of the orphan cleaner.
const (
	// AnnotationPendingDeletion marks an object of a removed role group that
	// waits out its grace period; the value is when the wait began (RFC 3339).
	AnnotationPendingDeletion = "orphan.opkit.dev/pending-deletion"
	// AnnotationDrainStarted marks a removed role group's StatefulSet scaled
	// to zero; the value is when the drain began (RFC 3339).
	AnnotationDrainStarted = "orphan.opkit.dev/drain-started"
	// AnnotationDeletePVCs on a cluster resource, set to "true", lets the
	// orphan cleaner delete the volume claims of removed role groups.
	AnnotationDeletePVCs = "orphan.opkit.dev/delete-pvcs"
)

// Labels of the shard module, which spreads an operator's resources over its
// replicas. A ring is one operator's set of replicas; its name completes the
// two per-object keys, so operators sharing a cluster never read each
// other's assignments.
const (
	// LabelShardRing marks a replica's membership Lease; the value is the
	// ring's name.
	LabelShardRing = "ring.shard.opkit.dev/name"
	// LabelShardPrefix, followed by the ring's name, is the key of the label
	// naming the replica that owns a resource and the objects it manages.
	LabelShardPrefix = "shard.opkit.dev/"
	// LabelShardDrainPrefix, followed by the ring's name, is the key of the
	// label asking a resource's owner to hand it over; the value names the
	// replica that asked. The owner acknowledges by removing both labels.
	LabelShardDrainPrefix = "drain.shard.opkit.dev/"
	// LabelShardBucketPrefix, followed by the ring's name, is the key of
	// the label a product's pod templates carry when its operator is
	// sharded: the value is the resource's bucket, a number fixed by the
	// resource's identity that never changes when the resource moves, so
	// that each replica caches the pods of its own buckets without the
	// pods being rolled at a move.
	LabelShardBucketPrefix = "bucket.shard.opkit.dev/"
)

// ReservedLabelPrefixes returns the prefixes of label keys that, like
// ReservedLabelKeys, are never copied from a cluster resource to the
// objects built for it, sorted: the shard module's owner and drain labels
// name the replica working on the resource at the moment, and copying
// them would change every pod template whenever the resource moves. (The
// reconcilers set the owner label on the objects' own metadata, never on
// a pod template, and the bucket label on pod templates themselves.)
func ReservedLabelPrefixes() []string {
	return []string{LabelShardBucketPrefix, LabelShardDrainPrefix, LabelShardPrefix}
}
