// Package orphan retires the role groups a cluster resource no longer
// declares, safely and over many reconcile passes.
//
// A Cleaner is built once and called once per pass with the cluster
// resource, the role groups its spec declares and its status ledger of
// applied role groups:
//
//	cleaner, err := orphan.NewCleaner(mgr.GetClient(), mgr.GetAPIReader(), orphan.Options{})
//	...
//	res, err := cleaner.Clean(ctx, orphan.Input{Owner: cr, Declared: declared, Ledger: cr.Status.RoleGroups})
//	cr.Status.RoleGroups = orphan.Prune(cr.Status.RoleGroups, res.Reclaimed)
//	if res.RequeueAfter > 0 { ... requeue no later than that ... }
//
// Work is found in the union of the ledger and the live cluster: the
// ConfigMaps and StatefulSets controller-owned by the cluster resource that
// carry the full role-group label set and are named exactly what
// builders.RoleGroupResourceName gives for those labels. Each removed group
// then advances one step per pass: an optional grace period, scale to zero,
// the drain (bounded by a timeout), then the deletion of the PodDisruption
// Budget, the volume claims (only when the cluster resource opts in), the
// StatefulSet, the product's registered extra kinds, the ConfigMap and the
// three Services, each confirmed absent through the uncached reader before
// the next is touched. Progress is kept in annotations on the objects being
// retired, so a restarted operator resumes where it stopped, and marks on a
// group that is declared again are removed.
//
// The Cleaner never writes the cluster resource: the caller prunes its
// ledger from Result.Reclaimed, which lists only groups an uncached read
// found empty.
package orphan
