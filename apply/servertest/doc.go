// Package servertest holds the tests of the apply module that need a real
// API server (and, for readiness and garbage collection, real
// controllers): they run against the testkit control plane. It is a module
// of its own so that the apply module does not require testkit.
package servertest
