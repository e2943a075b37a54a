package scaffold

import (
	"strings"

	"github.com/gobuffalo/flect"
)

// project is what the templates see: the options, defaulted, and the
// names derived from them.
type project struct {
	Type    Type
	Name    string
	Module  string
	Group   string
	Version string
	Kind    string
	// LowerKind is the kind in lower case: the singular resource name,
	// the file names of the types and the sample.
	LowerKind string
	// Plural is the resource name, as controller-gen would derive it; the
	// types state it in their markers.
	Plural string
	// Product is the product's name, the name of its image: Name without
	// a trailing "-operator".
	Product string
	// Replaced says the project's go.mod replaces opkit's modules with
	// directories.
	Replaced bool
}

func newProject(o Options, w opkitWiring) project {
	return project{
		Type:      o.Type,
		Name:      o.Name,
		Module:    o.Module,
		Group:     o.Group,
		Version:   o.version(),
		Kind:      o.Kind,
		LowerKind: strings.ToLower(o.Kind),
		Plural:    plural(o.Kind),
		Product:   strings.TrimSuffix(o.Name, "-operator"),
		Replaced:  len(w.replaces) > 0,
	}
}

// plural is the resource name of kind as controller-gen derives it, with
// the same inflection library.
func plural(kind string) string {
	return strings.ToLower(flect.Pluralize(kind))
}
