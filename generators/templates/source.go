package templates

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"text/template"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

// Source is a parsed template tree: every file of a directory of an fs.FS,
// each a Go template named by its path, sharing the definitions of the
// helper files ("_*"). It is safe for concurrent renderings.
type Source struct {
	files []File
	base  *template.Template
	// custom are the names of Options.Funcs, which the functions bound to
	// a rendering must not replace.
	custom []string
}

// Load reads and parses the tree at dir (a slash-separated path in fsys,
// "." for its root): ReadTree, then Parse.
func Load(fsys fs.FS, dir string, opts Options) (*Source, error) {
	files, err := ReadTree(fsys, dir, opts)
	if err != nil {
		return nil, err
	}
	return Parse(files, opts)
}

// ReadTree returns the files of the tree at dir (a slash-separated path in
// fsys, "." for its root) in path order, without the ignore file and the
// files it names: what Load parses. A generator that checks the files
// before they are parsed reads them with ReadTree and hands them to Parse.
// Failures are *generators.ConfigError, blamed on the operator's author.
func ReadTree(fsys fs.FS, dir string, opts Options) ([]File, error) {
	return readTree(fsys, dir, opts.ignoreFile())
}

// Parse parses files (as ReadTree returns them) into a Source that renders
// them in the order given. A file that does not parse is a
// *generators.TemplateError blamed on the operator's author.
func Parse(files []File, opts Options) (*Source, error) {
	files = slices.Clone(files)
	funcs := baseFuncs()
	maps.Copy(funcs, opts.Funcs)
	base := template.New("").Delims(opts.LeftDelim, opts.RightDelim).Option("missingkey=zero").Funcs(funcs)
	for _, f := range files {
		if _, err := base.New(f.Path).Parse(string(f.Data)); err != nil {
			return nil, &generators.TemplateError{Template: f.Path, Author: failure.AuthorOperator, Err: err}
		}
	}
	printNothingForNoValue(base)
	return &Source{files: files, base: base, custom: slices.Collect(maps.Keys(opts.Funcs))}, nil
}

// Files returns the tree's files as read (templates, not renderings).
func (s *Source) Files() []File { return s.files }

// Render executes every file that is not a helper, in path order, with
// the data
//
//	.Values     parameters
//	.Namespace  namespace
//	.Name       name
//	.Template   {Name: the file's path}
//
// and the functions bound to EnvironmentFrom(ctx). A failed lookup or
// discovery call is returned as such (with its API class); any other
// execution failure is a *generators.TemplateError blamed on the
// component's author at the parameters' path.
func (s *Source) Render(ctx context.Context, namespace, name string, parameters map[string]any) ([]File, error) {
	return s.render(ctx, namespace, name, parameters, func(File) bool { return true })
}

// RenderFile renders only the file at p (a path of Files), as Render would.
func (s *Source) RenderFile(ctx context.Context, namespace, name string, parameters map[string]any, p string) ([]byte, error) {
	files, err := s.render(ctx, namespace, name, parameters, func(f File) bool { return f.Path == p })
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, &generators.ConfigError{Field: "file", Err: fmt.Errorf("%q is not a renderable file of the tree", p)}
	}
	return files[0].Data, nil
}

func (s *Source) render(ctx context.Context, namespace, name string, parameters map[string]any, want func(File) bool) ([]File, error) {
	env := generators.EnvironmentFrom(ctx)
	t, err := s.base.Clone()
	if err != nil {
		return nil, err
	}
	state := &renderState{env: env, lookups: generators.NewLookups(env)}
	bound := state.renderFuncs(ctx, t)
	for _, n := range s.custom {
		delete(bound, n)
	}
	t.Funcs(bound)
	// Templates can change what they are given (sprig's set and unset);
	// the caller's parameters stay untouched.
	values, _ := copyValue(parameters).(map[string]any)
	if values == nil {
		values = map[string]any{}
	}
	out := make([]File, 0, len(s.files))
	for _, f := range s.files {
		if f.IsHelper() || !want(f) {
			continue
		}
		data := map[string]any{
			"Values":    values,
			"Namespace": namespace,
			"Name":      name,
			"Template":  map[string]any{"Name": f.Path},
		}
		var b strings.Builder
		if err := t.ExecuteTemplate(&b, f.Path, data); err != nil {
			if envErr := state.envErr(); envErr != nil {
				return nil, fmt.Errorf("template %s: %w", f.Path, envErr)
			}
			return nil, &generators.TemplateError{Template: f.Path, Author: failure.AuthorUser,
				Field: env.EffectiveParametersPath(), Err: err}
		}
		out = append(out, File{Path: f.Path, Data: []byte(b.String())})
	}
	return out, nil
}

// copyValue copies the maps and slices of a JSON-like value, so that a
// template changing them changes its own copy.
func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyValue(e)
		}
		return out
	default:
		return v
	}
}

// Fingerprint identifies the source's files (their paths and contents).
func (s *Source) Fingerprint() string {
	files := make([]generators.SourceFile, len(s.files))
	for i, f := range s.files {
		files[i] = generators.SourceFile{Path: f.Path, Data: f.Data}
	}
	return generators.FingerprintFiles(files)
}
