// Package share trims what a cached resource's status repeats, for the
// cache transforms of both reconcilers: the groups, versions, kinds and
// namespaces of its inventory items and the types, reasons and messages of
// its conditions are held once per process (apply.Shared), and an
// inventory's items are copied into a slice of their length, so that the
// capacity the JSON decoder left is not kept for the life of the cached
// object. The content does not change. After chains such a step behind
// the transform a cache already has.
//
//	share.Inventory(&status.Inventory)
//	share.Conditions(status.Conditions)
//	opts.DefaultTransform = share.After(opts.DefaultTransform, func(in any) { … })
package share
