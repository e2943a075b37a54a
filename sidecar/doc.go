// Package sidecar is the opkit module that owns the sidecar Provider interface
// and the Manager that injects providers into pod specs in a deterministic,
// phase-ordered way, validates their prerequisites before a StatefulSet is
// applied, and is safe to share across concurrent reconciles; it ships a JMX
// exporter provider.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package sidecar
