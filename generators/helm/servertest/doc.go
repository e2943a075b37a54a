// Package servertest holds the tests of the Helm generator that need a real
// API server (testkit's control plane): lookup and .Capabilities through
// real clients. It is a module of its own so that the generators/helm
// module never requires testkit.
package servertest
