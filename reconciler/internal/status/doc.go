// Package status writes a resource's status the way both reconcilers do:
// only when a pass changed it, retried on a conflict only when nobody else
// wrote the status meanwhile, and remembered so that the next pass does
// not act on a cached copy older than the write.
//
//	err := status.Update(ctx, status.Target{Client: c, Reader: apiReader, Versions: &versions},
//		obj, origStatus, func(o client.Object) any { return o.(*v1.Thing).Status })
package status
