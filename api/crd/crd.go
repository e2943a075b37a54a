// Package crd holds the CustomResourceDefinitions of the kinds this module
// defines — S3Connection and S3Bucket (s3.opkit.dev) and
// AuthenticationClass (authentication.opkit.dev) — as the YAML
// controller-gen generates from the Go types, embedded so an installer or a
// test reaches them without knowing where the module lives on disk. The
// module depends on no apiextensions package, so the manifests are bytes:
// decode them with the CRD type of your choice.
//
//	fsys := crd.Manifests()
//	names, _ := fs.Glob(fsys, "*.yaml")
package crd

import (
	"embed"
	"io/fs"
)

//go:embed *.yaml
var manifests embed.FS

// Manifests returns the CRD manifests, one file per kind, named
// "<group>_<plural>.yaml".
func Manifests() fs.FS { return manifests }
