// Package webhook runs the product reconciler's own checks at admission,
// through controller-runtime's webhook package, so `kubectl apply` shows
// what a pass would otherwise report later as a condition: a role the
// product does not declare, an affinity or pod override that does not
// decode, a pod override displacing a framework mount, an image tag that
// cannot be assembled, a graceful shutdown timeout that is no duration.
// Each becomes a field.Error naming the path the user wrote
// ("spec.roles.serer", "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty")
// in an Invalid response.
//
//	wh, err := webhook.New(webhook.Options[*v1alpha1.KafkaCluster]{Reconciler: cfg})
//	err = wh.SetupWithManager(mgr) // /mutate-… and /validate-… on mgr's webhook server
//	mutating, validating := webhook.Configurations(webhook.ConfigurationOptions{…})
//
// The checks are the reconciler's code, not a copy: reconciler.ValidateCatalog
// on the product's catalog, configfold's fold and override merge,
// imageresolve.Resolve, and the product's RoleGroupHandler building each
// role group (the builders report pod-override and graceful-shutdown
// problems). Only the cluster resource's author's mistakes are refused;
// what the operator got wrong, and what cannot be judged at admission (a
// role catalog that waits for another object), is admitted with a warning
// and left to the reconciler.
//
// Defaulting never freezes what the reconciler recomputes each pass: the
// product's Default may set its own fields, and a change it makes to the
// embedded common spec (spec.image, spec.roles, …) is undone and logged,
// since a value stored at admission would outlive the next operator
// upgrade's defaults.
package webhook
