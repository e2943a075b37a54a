// Package api is the opkit module that owns the CRD types a product's cluster
// custom resource embeds: cluster spec and status, roles and role groups,
// role-group configuration (resources, affinity, logging, graceful shutdown),
// overrides (config, env, cli, pod), the image spec, the PodDisruptionBudget
// spec and the cluster operation switches, plus the label and annotation keys
// every other opkit module uses.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package api
