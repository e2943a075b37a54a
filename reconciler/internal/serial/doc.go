// Package serial runs the passes of one resource one at a time.
//
// controller-runtime's work queue never hands one key to two workers at
// once, but a pass can also be started directly (a test, a command-line
// tool, a webhook computing a plan): two passes of one resource at the same
// time would both act on the same cached state, and the second could write
// again what the first has just written.
//
//	var keys serial.Keys[types.NamespacedName]
//	unlock := keys.Lock(req.NamespacedName)
//	defer unlock()
package serial
