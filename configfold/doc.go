// Package configfold folds the configuration layers of an opkit role group:
// what the operator declares as defaults (or contributes as overrides),
// beneath the role's block of the cluster resource, beneath the role
// group's. A later layer wins, with a rule per field:
//
//   - FoldCommon folds the common block every role group has
//     (v1alpha1.RoleGroupConfigSpec): resources per leaf, affinity
//     wholesale with a report of what each replacement discarded, logging
//     per container, gracefulShutdownTimeout atomically.
//   - FoldProduct folds a product's own config fields beside that block:
//     the last layer stating a top-level field wins, with no depth.
//     ValidateProductType refuses a field shape the fold could not honour.
//   - MergeOverrides merges config, environment and command-line overrides
//     and keeps pod overrides as ordered layers.
//   - DecodeAffinity, EncodeAffinity and NormalizeAffinity turn the
//     schema-free affinity value into a corev1.Affinity and back, strictly;
//     PreferredAffinityTerm and the selector helpers build default terms.
//
// A user's mistake is returned as a *FieldError naming the layer and the
// field, so the caller can put it on the cluster resource's status and in
// an event:
//
//	common, overrides, err := configfold.FoldCommon(decl.ConfigDefaults, roleSpec.Config, groupSpec.Config)
//	var fe *configfold.FieldError
//	if errors.As(err, &fe) {
//		// fe.SpecPath("server", "default") is, for example,
//		// "spec.roles.server.roleGroups.default.config.affinity.nodeAffinty"
//	}
//	for _, o := range overrides {
//		// emit an AffinityOverridden warning with o.String()
//	}
//
// Every function is pure: results share no memory with the inputs, and
// nothing is read from or written to global state.
package configfold
