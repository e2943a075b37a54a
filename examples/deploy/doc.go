// Package deploy tests what deploying the example operators takes: each
// one's config/default, built as kubectl apply -k builds it and applied
// by server-side apply to a real control plane (with controllers, a
// scheduler and kwok nodes), gives an operator Deployment that becomes
// Available; the operator's binary, run with that Deployment's arguments
// as its ServiceAccount, reconciles the samples with the RBAC the config
// grants and serves its metrics only to callers allowed to read them.
//
// It holds tests only:
//
//	cd examples && go test ./deploy
package deploy
