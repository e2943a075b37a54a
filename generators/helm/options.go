package helm

import "text/template"

// Options configures a Helm Generator. The zero value is ready to use.
type Options struct {
	// Funcs are extra template functions; they replace Helm's functions of
	// the same name.
	Funcs template.FuncMap
	// SkipCRDs leaves out the CustomResourceDefinitions of the crds/
	// directories (of the chart and its enabled subcharts). False (the
	// default) renders them first, as Helm installs them first.
	SkipCRDs bool
}
