// Package servertest holds the component reconciler's tests that need a
// real control plane (etcd, kube-apiserver, the controller manager, the
// scheduler and kwok nodes, so Deployments really become ready), and a
// second one for remote targets. A component operator built from the
// public API applies a Helm chart and a kustomization shipped in testdata
// and is driven through readiness, live edits, referenced Secrets,
// timeouts, revisions, suspension and deletion in waves. Package shop
// defines the Shop component type the tests use.
//
// It is a module of its own so that the reconciler module requires none of
// that. Run it from this directory with the control plane assets built:
//
//	CI=true GOWORK=off go test ./...
package servertest
