// Package fresh tells a cached copy of a resource that predates the
// reconciler's own last write to it.
//
// A pass reads its resource from the informer cache, which may not have
// seen the reconciler's previous status write or finalizer patch yet.
// Working from such a copy would apply against an old inventory, count a
// revision twice or run a deletion's hooks again. Resource versions are
// opaque, so the check is exact rather than ordered: a cached copy at a
// version one of the writes replaced is stale; any other version is one of
// the writes or something newer (a watch is ordered), and clears the
// record.
//
//	var versions fresh.Versions
//	// after a successful write that replaced version before:
//	versions.Wrote(key, uid, before)
//	// at the start of the next pass:
//	if versions.Stale(key, obj.GetUID(), obj.GetResourceVersion()) {
//		return ctrl.Result{RequeueAfter: time.Second}, nil // the watch brings the write
//	}
package fresh
