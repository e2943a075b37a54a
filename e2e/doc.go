// Package e2e is the opkit module that owns cross-module scenarios for opkit:
// fault injection, crash and restart, scale and performance benchmarks.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package e2e
