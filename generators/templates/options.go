package templates

import "text/template"

// DefaultIgnoreFile is the ignore file read when Options.IgnoreFile is
// empty.
const DefaultIgnoreFile = ".generatorignore"

// Options configures how a template tree is read and rendered. The zero
// value is ready to use.
type Options struct {
	// LeftDelim and RightDelim are the action delimiters. Empty means "{{"
	// and "}}". Change them for trees whose files contain "{{" themselves
	// (Prometheus rules, Grafana dashboards).
	LeftDelim, RightDelim string
	// Funcs are extra template functions; they replace built-in functions
	// of the same name.
	Funcs template.FuncMap
	// IgnoreFile is the name of the ignore file at the tree's root, in
	// .dockerignore syntax (patterns relative to the root, "**", "!" to
	// re-include). Empty means DefaultIgnoreFile. The ignore file itself is
	// never rendered.
	IgnoreFile string
}

func (o Options) ignoreFile() string {
	if o.IgnoreFile == "" {
		return DefaultIgnoreFile
	}
	return o.IgnoreFile
}
