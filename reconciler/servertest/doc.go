// Package servertest holds the product reconciler's tests against a real
// control plane (kube-apiserver, etcd, kube-controller-manager, the
// scheduler and kwok nodes from testkit). It is a module of its own so that
// the reconciler module does not require testkit.
package servertest
