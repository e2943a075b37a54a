package kustomize

import "github.com/opkit-dev/opkit/generators/templates"

// Options configures a kustomize Generator. The zero value is ready to use.
type Options struct {
	// Template configures the rendering of the tree's files: delimiters,
	// extra functions, ignore file.
	Template templates.Options
}
