// Package apply is the opkit module that owns the object reconciler: it
// applies a set of objects in waves and removes obsolete ones, tracked by an
// inventory the caller persists, with drift detection, adoption, update and
// delete policies, purge order, managed types, kstatus readiness and typed
// handling of immutable fields.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package apply
