package templates

import (
	"context"
	"io/fs"
	"path"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/generators"
)

// Generator renders the manifests of a template tree: every file ending in
// .yaml, .yml or .json that is not a helper, each holding any number of
// YAML documents. Other files are parsed (and may hold definitions) but
// produce no objects.
type Generator struct {
	src *Source
}

var _ generators.Generator = &Generator{}

// New loads the tree at dir of fsys; see Load.
func New(fsys fs.FS, dir string, opts Options) (*Generator, error) {
	src, err := Load(fsys, dir, opts)
	if err != nil {
		return nil, err
	}
	return &Generator{src: src}, nil
}

// Generate renders the tree and decodes the manifests, in path order and
// document order within a file.
func (g *Generator) Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
	files, err := g.src.Render(ctx, namespace, name, parameters)
	if err != nil {
		return nil, err
	}
	var objects []client.Object
	for _, f := range files {
		if !IsManifest(f.Path) {
			continue
		}
		us, err := generators.Decode(f.Path, f.Data)
		if err != nil {
			return nil, err
		}
		for _, u := range us {
			objects = append(objects, u)
		}
	}
	logr.FromContextOrDiscard(ctx).V(1).Info("rendered templates", "namespace", namespace, "name", name, "objects", len(objects))
	return objects, nil
}

// IsManifest reports whether p names a manifest file: .yaml, .yml or
// .json.
func IsManifest(p string) bool {
	switch path.Ext(p) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Fingerprint identifies the tree's files (their paths and contents).
func (g *Generator) Fingerprint() string { return g.src.Fingerprint() }
