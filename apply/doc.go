// Package apply is the object reconciler of opkit: it applies a set of
// Kubernetes objects in apply waves and removes obsolete ones in delete
// waves, remembering what it did in an Inventory that the caller persists
// (typically in the status of its custom resource).
//
// A Reconciler is created for one owner (the custom resource whose
// dependents it manages) with a fully qualified name, which is the prefix of
// every annotation and label it reads or writes and the default field
// manager and finalizer:
//
//	r, err := apply.New("zookeeper.operators.example.com", "ns/my-zk", c, apply.Options{})
//	res, err := r.Apply(ctx, &cr.Status.Inventory, objects)
//	if err == nil && !res.Ready { /* requeue */ }
//	// on deletion of the owner:
//	if ok, reason, _ := r.IsDeletionAllowed(ctx, cr.Status.Inventory); ok {
//		done, err := r.Delete(ctx, &cr.Status.Inventory)
//	}
//
// Apply and Delete are level based: each call does what it can without
// waiting and says whether the work is finished; call again (requeue) until
// it is.
//
// Per object, annotations under the reconciler's name override the
// policies of Options (see the Annotation constants): adoption, reconcile,
// update and delete policies, apply, delete and purge orders, and a status
// hint for readiness of custom types.
//
// Drift is detected from the digest of the desired object, recorded on the
// object and in the inventory, and from the live object's generation (or
// resourceVersion, for types without a generation) recorded after the last
// write: a pass where neither changed writes nothing, and a change by
// someone else is reverted on the next pass.
//
// Immutable fields of StatefulSets, Services, Jobs and PersistentVolumeClaims
// are preserved on every update path; Result.IgnoredFields names those the
// desired object stated differently.
package apply
