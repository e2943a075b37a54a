// Package servertest holds the orphan module's tests that need a real
// control plane: etcd, kube-apiserver, the controller manager, the scheduler
// and kwok nodes, so StatefulSets get pods that drain and owner references
// are garbage-collected. It is a module of its own so that the orphan
// module requires none of that; it has no code of its own.
//
// Run it from this directory with the control plane assets built:
//
//	CI=true GOWORK=off go test ./...
package servertest
