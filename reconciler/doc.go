// Package reconciler is the opkit module that owns the reconcilers that
// compose the other opkit modules: a generic reconciler for role-group
// products and, in package reconciler/component, a reconciler for components
// rendered from a generator.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package reconciler
