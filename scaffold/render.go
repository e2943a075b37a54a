package scaffold

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"io/fs"
	"path"
	"strings"
	"text/template"
)

// templates holds the project's files: common/ for every project, and a
// directory per Type. A file ending in .tmpl is a text/template executed
// with the project (and, when it renders Go, formatted as gofmt does);
// any other file is copied as it is. In paths, KIND stands for the kind in
// lower case and VERSION for the API version, and a leading "_" in a
// file's name for a dot (so that the repository's own tools leave files
// such as .gitignore alone).
//
//go:embed all:templates
var templates embed.FS

// render returns the project's files but go.mod, by slash-separated path
// relative to the project.
func render(p project) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, root := range []string{"templates/common", "templates/" + string(p.Type)} {
		err := fs.WalkDir(templates, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			src, err := templates.ReadFile(name)
			if err != nil {
				return err
			}
			out, data, err := renderFile(p, strings.TrimPrefix(name, root+"/"), src)
			if err != nil {
				return err
			}
			if _, dup := files[out]; dup {
				return fmt.Errorf("two templates write %s", out)
			}
			files[out] = data
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// renderFile returns the path and content of the file template name
// (relative to its root) writes.
func renderFile(p project, name string, src []byte) (string, []byte, error) {
	out := strings.NewReplacer("KIND", p.LowerKind, "VERSION", p.Version).Replace(name)
	if base, ok := strings.CutPrefix(path.Base(out), "_"); ok {
		out = path.Join(path.Dir(out), "."+base)
	}
	out, isTemplate := strings.CutSuffix(out, ".tmpl")
	if !isTemplate {
		return out, src, nil
	}
	t, err := template.New(name).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return "", nil, fmt.Errorf("template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, p); err != nil {
		return "", nil, fmt.Errorf("template %s: %w", name, err)
	}
	if path.Ext(out) != ".go" {
		return out, b.Bytes(), nil
	}
	formatted, err := format.Source(b.Bytes())
	if err != nil {
		return "", nil, fmt.Errorf("template %s renders Go that does not parse: %w", name, err)
	}
	return out, formatted, nil
}
