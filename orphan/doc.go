// Package orphan is the opkit module that owns retiring role groups that were
// removed from a cluster's spec, over many reconcile passes: discovery from
// the live cluster and the status ledger, grace period, scale to zero, drain
// with a deadline, opt-in PVC deletion and ordered, confirmed deletes.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package orphan
