// Package servertest holds the vector tests that need a real API server and
// real controllers: a role group followed from the gate through discovery,
// rendering, the requirements check and injection to pods that run under
// the restricted Pod Security profile. It is its own module, so the vector
// module requires neither a client nor a test control plane.
package servertest
