// Package apply is the object engine of opkit: it applies a set of
// Kubernetes objects in apply waves and removes obsolete ones in delete
// waves, remembering what it did in an inventory.Inventory that the caller
// persists (typically in the status of its custom resource).
//
// One Engine, created once per controller with a fully qualified name
// (the prefix of every annotation and label it reads or writes, and the
// default field manager and finalizer), serves every owner: each call names
// its owner and the owner's values in PassOptions.
//
//	engine, err := apply.New("zookeeper.operators.example.com", mgr.GetClient(), apply.Options{Reader: mgr.GetAPIReader()})
//	pass := apply.PassOptions{Owner: apply.Owner{ID: string(cr.UID), DefaultNamespace: cr.Namespace}}
//	res, err := engine.Apply(ctx, &cr.Status.Inventory, objects, pass)
//	for _, c := range res.Changes { /* events, conditions */ }
//	if err == nil && !res.Done { /* requeue */ }
//	// on deletion of the owner:
//	if ok, reason, _ := engine.IsDeletionAllowed(ctx, &cr.Status.Inventory); ok {
//		res, err := engine.Delete(ctx, &cr.Status.Inventory, pass)
//	}
//
// Apply and Delete are level based: each call does what it can without
// waiting and says whether the work is finished (Result.Done); call again
// (requeue) until it is. Result.Changes says, per object, what the pass did
// (created, updated, unchanged, deleted, orphaned, released, …) with a
// structured reference and its error; errors are classified with the
// classes of package failure (an invalid set is failure.ErrInvalid, a
// foreign owner failure.ErrRequeue, a 429 failure.ErrRateLimited).
//
// Per object, annotations under the engine's name override the
// policies of Options (see the Annotation constants): adoption, reconcile,
// update and delete policies, apply, delete and purge orders, a reapply
// interval and a status hint for readiness of custom types.
//
// Drift is detected from the digest of the desired object, recorded on the
// object and in the inventory, and from the live object's generation (or
// resourceVersion, for types without a generation) recorded after the write
// of that desired state: a pass where neither changed writes nothing, and a
// change by someone else is reverted on the next pass, leaving the
// inventory as it was (the revert's version is kept in memory). A cached
// read older than the engine's own last write of an object is not acted
// on: a pass never writes on the strength of a cache that has not seen
// its previous write. Objects whose drift metadata decides (ConfigMaps, Secrets, RBAC objects, …) are read as metadata only;
// ManagerOptions sets up a manager cache so that a no-op pass makes no
// request at all, and IndexOwners indexes it by owner, so that the search
// for objects a lost inventory would leak reads an owner's objects alone.
//
// Immutable fields of StatefulSets, Services, Jobs and PersistentVolumeClaims
// are preserved on every update path; Change.IgnoredFields names those the
// desired object states differently, on every pass while it does, and
// Change.IgnoredValues says which values differ, live and desired.
package apply
