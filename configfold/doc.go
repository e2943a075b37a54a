// Package configfold folds the configuration layers of an opkit role group:
// what the operator declares for the role (its config defaults, or the
// overrides it contributes), beneath the role's block of the cluster
// resource, beneath the role group's. The layers are named with
// commonsv1alpha1.Layer and passed in a Layers value, one field per layer,
// so none can be put in the wrong order; a later (higher) layer wins, with a
// rule per field:
//
//   - FoldCommon folds the common block every role group has
//     (v1alpha1.RoleGroupConfigSpec): resources per leaf, affinity
//     wholesale with a report of what the result lacks, logging per
//     container, gracefulShutdownTimeout atomically.
//   - FoldProduct folds a product's own config fields beside that block:
//     the last layer stating a top-level field wins, with no depth.
//     ValidateProductType refuses a field shape the fold could not honour.
//   - MergeOverrides merges config, environment and command-line overrides
//     and keeps pod overrides as ordered, strictly checked layers; a layer
//     that does not decode is recorded, not dropped.
//   - DecodeAffinity, EncodeAffinity and NormalizeAffinity turn the
//     schema-free affinity value into a corev1.Affinity and back, strictly;
//     PreferredAffinityTerm builds default terms from a selector the caller
//     supplies.
//
// Every error belongs to the class failure.ErrInvalid and says whose it is
// and which field, at its absolute path, so a caller needs only the failure
// package:
//
//	folded, err := configfold.FoldCommon(configfold.Layers[v1alpha1.RoleGroupConfigSpec]{
//		RoleName: "server", RoleGroupName: "default",
//		Declaration: decl.ConfigDefaults, Role: role.Config, RoleGroup: group.Config,
//	})
//	if failure.AuthorOf(err) == failure.AuthorUser {
//		// condition + Warning event naming failure.FieldOf(err), for example
//		// "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty"
//	}
//	if o := folded.AffinityOverride; o != nil {
//		// AffinityOverridden Warning event with o.String()
//	}
//
// Every function is pure: results share no memory with the inputs, and
// nothing is read from or written to global state.
package configfold
