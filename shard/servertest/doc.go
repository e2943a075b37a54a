// Package servertest holds the shard module's tests that need a real
// control plane (etcd and kube-apiserver): several members of one ring in
// one test process, each with its own client, Lease, filtered cache and
// controller, handing resources over as members join and die. It is a
// module of its own so that the shard module requires none of that; it has
// no code of its own.
//
// Run it from this directory with the control plane assets built:
//
//	CI=true GOWORK=off go test ./...
package servertest
