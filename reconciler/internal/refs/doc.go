// Package refs watches the ConfigMaps and Secrets that resources refer to,
// for both reconcilers: a cache of their names and versions only (about
// 200 bytes an object, whatever their data), and the mapping from a
// changed object to the resources that refer to it, through an index of
// the resources' cache.
//
//	versions, _ := refs.NewCache(mgr, namespaces)
//	_ = mgr.Add(versions)
//	_ = mgr.GetFieldIndexer().IndexField(ctx, &v1.Thing{}, index, keysOf)
//	for _, kind := range refs.Kinds {
//		b = b.WatchesRawSource(source.Kind(versions, refs.Object(kind),
//			handler.EnqueueRequestsFromMapFunc(refs.Referring(mgr.GetClient(), listGVK, index, kind, key, log))))
//	}
package refs
