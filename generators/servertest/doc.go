// Package servertest holds the tests of the generators module that need a
// real API server (testkit's control plane): lookups and discovery through
// real clients, and the annotation names checked against the object
// reconciler's. It is a module of its own so that the generators module
// never requires testkit.
package servertest
