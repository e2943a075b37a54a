package kustomize

import (
	"context"
	"fmt"
	"io/fs"
	"path"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

// root is where the rendered tree sits in the in-memory file system.
const root = "/component"

// Generator renders a kustomization; see the package documentation.
type Generator struct {
	src *templates.Source
}

var _ generators.Generator = &Generator{}

// New loads and parses the tree at dir of fsys (a slash-separated path,
// "." for the root). A kustomization that inflates Helm charts
// (helmCharts) is refused with a *generators.TemplateError blamed on the
// operator's author.
func New(fsys fs.FS, dir string, opts Options) (*Generator, error) {
	files, err := templates.ReadTree(fsys, dir, opts.Template)
	if err != nil {
		return nil, err
	}
	if err := refuseHelmCharts(files); err != nil {
		return nil, err
	}
	src, err := templates.Parse(files, opts.Template)
	if err != nil {
		return nil, err
	}
	return &Generator{src: src}, nil
}

// Generate renders the tree's templates, runs kustomize on the result and
// returns its objects in kustomize's output order (see kustomizeOptions).
// A kustomization kustomize refuses is a *generators.TemplateError blamed
// on the operator's author.
func (g *Generator) Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
	files, err := g.src.Render(ctx, namespace, name, parameters)
	if err != nil {
		return nil, err
	}
	if err := refuseHelmCharts(files); err != nil {
		return nil, err
	}
	fsys := filesys.MakeFsInMemory()
	paths := make([]string, 0, len(files))
	for _, f := range files {
		if err := fsys.WriteFile(path.Join(root, f.Path), f.Data); err != nil {
			return nil, err
		}
		paths = append(paths, f.Path)
	}
	source := kustomizationFile(paths, ".")
	if source == "" {
		source = "generated kustomization.yaml"
		k, err := generatedKustomization(paths)
		if err != nil {
			return nil, err
		}
		if err := fsys.WriteFile(path.Join(root, "kustomization.yaml"), k); err != nil {
			return nil, err
		}
	}
	m, err := krusty.MakeKustomizer(kustomizeOptions()).Run(fsys, root)
	if err != nil {
		return nil, &generators.TemplateError{Template: source, Author: failure.AuthorOperator, Err: err}
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, fmt.Errorf("kustomize output: %w", err)
	}
	us, err := generators.Decode(source, out)
	if err != nil {
		return nil, err
	}
	objects := make([]client.Object, len(us))
	for i, u := range us {
		objects[i] = u
	}
	logr.FromContextOrDiscard(ctx).V(1).Info("rendered kustomization", "namespace", namespace, "name", name,
		"kustomization", source, "objects", len(objects))
	return objects, nil
}

// Fingerprint identifies the tree's files (their paths and contents).
func (g *Generator) Fingerprint() string { return g.src.Fingerprint() }
