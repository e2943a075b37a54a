// Package servertest holds the sidecar tests that need a real API server:
// requirements judged against objects read from it, read failures that
// stay retriable, and injected sidecars accepted by a namespace enforcing
// the restricted Pod Security profile. It is its own module, so the sidecar
// module requires neither a client nor a test control plane.
package servertest
