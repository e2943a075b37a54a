// Package scaffold generates a new operator project built on opkit: a Go
// module with its API type (kubebuilder markers; deep copies and CRD by
// controller-gen, pinned as a tool of the project), the operator's code
// on opkit's product reconciler (role groups) or component reconciler
// (Go templates), a main wired the way both reconcilers are wired, a
// kustomize tree (crd, rbac, manager, default, prometheus) whose RBAC is
// derived from the reconciler's configuration, a Dockerfile, a Makefile,
// a test against a real control plane and a README.
//
//	dir, err := scaffold.Generate(ctx, scaffold.Options{
//		Type:      scaffold.Product,
//		Name:      "zookeeper-operator",
//		Module:    "example.com/zookeeper-operator",
//		Group:     "zookeeper.example.com",
//		Kind:      "ZookeeperCluster",
//		OpkitPath: "../opkit", // or OpkitVersion: "v0.3.0"
//	})
//
// Every option the scaffold refuses is reported at once, each a
// *FlagError naming the command's flag and the rule. The project is
// written and completed (go mod tidy, go generate, go build) in a hidden
// directory beside the target and renamed into place at the end, so a
// failure leaves nothing half-made. Command opkit-scaffold
// (cmd/opkit-scaffold) is its command line.
package scaffold
