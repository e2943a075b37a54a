// Package examples is the opkit module that owns runnable example operators
// built with opkit: a role-group product and a generator-driven component,
// with their CRDs and sample resources.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package examples
