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
//	if failure.ClassOf(err) == failure.ClassRateLimited {
//		return ctrl.Result{RequeueAfter: failure.Delay(err)}, nil
//	}
//	cr.Status.RoleGroups = res.Prune(cr.Status.RoleGroups)
//	for _, g := range res.Groups { ... g.Stage, g.Since, g.Deadline ... }
//	for _, a := range res.Actions() { ... an event per action ... }
//
// Work is found in the union of the ledger and the live cluster: the
// ConfigMaps, StatefulSets and Services controller-owned by the cluster
// resource that carry the full role-group label set and are named exactly
// what builders.RoleGroupResourceName gives for those labels.
//
// Each pass lists those kinds in the cluster's namespace; where many
// clusters share a namespace, Index adds an index of the cache by cluster
// and Options.Index makes the lists use it.
//
// Each removed group then goes through the stages of a teardown, one step
// per pass: StageGrace (an optional grace period), StageScalingDown,
// StageDraining (until the StatefulSet controller reports no pods for the
// current generation, bounded by a timeout), StageDeletingObjects for the
// PodDisruptionBudget, StageDeletingClaims (only when the cluster resource
// opts in), StageDeletingObjects again for the StatefulSet, the product's
// registered extra kinds, the ConfigMap and the three Services, and
// StageReclaimed. Each object is read as absent before the next is
// touched: through the client (a cache, typically), and, before the group
// is reported reclaimed, through the uncached reader, with one list per
// kind of object the group's ledger entry records. The stages are small functions run
// in order by one dispatcher; a stage that acts or waits ends the group's
// pass.
//
// Progress is kept in annotations on the objects being retired, so a
// restarted operator resumes where it stopped, and the marks of a group
// that is declared again are removed. A pass returns data: per group its
// stage, since when and until when, and the objects it acted on as
// structured references; the caller turns them into events, conditions and
// progress output. Each transition is also logged through the logger of
// the context (logr.FromContext), waits at V(1).
//
// The Cleaner never writes the cluster resource: the caller prunes its
// ledger with Result.Prune, which drops only groups an uncached read found
// gone. Waiting out a grace period or a drain reads nothing uncached. Errors carry the classes of package failure: a 429 is
// failure.ErrRateLimited, an invalid option or input blames the operator.
package orphan
