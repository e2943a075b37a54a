// Package api is the opkit module that owns the CRD types a product's
// cluster custom resource embeds, in package
// [github.com/opkit-dev/opkit/api/commons/v1alpha1]: cluster spec and status,
// roles and role groups, the role-group configuration block (resources,
// affinity, logging, graceful shutdown), the overrides (config, env, cli,
// pod), the image spec, the PodDisruptionBudget spec and the cluster
// operation switches, plus the label and annotation keys every other opkit
// module uses.
//
// This root package has no code; import the versioned package.
package api
