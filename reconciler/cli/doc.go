// Package cli is the command line of an opkit operator's users: commands
// an operator's main mounts beside the manager, so that the operator's
// binary also answers what a change to a resource would do.
//
//	kafka plan -f cluster.yaml      # what the next passes would write, as diffs
//	kafka plan -f cluster.yaml -o json
//	kafka template -f deps.yaml -f cluster.yaml  # the objects a pass would apply, offline
//	kafka template --cluster -f cluster.yaml     # the same, reading the cluster
//	kafka status my-cluster         # conditions and inventory of a resource
//
// The commands run with the user's kubeconfig, not the operator's
// identity, and write nothing: plan sends server-side dry runs
// (dryRun=All), template --cluster and status read only, and template
// alone reads nothing but its files (the reconciler's SetupOffline). ForProduct and
// ForComponent build the commands of a product or a component reconciler;
// Command.Handles tells main whether its arguments name one of them.
//
// plan exits as kubectl diff does: 0 when nothing would change, 1 when
// something would, 2 (more than 1) on any error, and a plan that met an
// error is never printed as if complete.
package cli
