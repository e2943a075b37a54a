// Package vector is the opkit module that owns the Vector log agent: rendering
// vector.yaml from log producers, discovering the aggregator address, the
// sidecar provider that runs the agent, and the rule deciding when the agent
// is injected.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package vector
