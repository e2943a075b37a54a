// Package imageresolve is the opkit module that owns image resolution: the
// cluster resource's image, the role declaration's image and the operator's
// defaults folded per field into a validated image reference, pull policy,
// pull secret and the version label value.
//
// The module has no code yet; its scope is fixed by the module table in the
// repository's README.
package imageresolve
