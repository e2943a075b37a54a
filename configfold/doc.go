// Package configfold is the opkit module that owns folding configuration
// layers: the common role-group block (declaration defaults, role, role
// group), a product's own config fields, override merging (config files,
// environment, command line, pod overrides) and strict handling of affinity
// values.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package configfold
