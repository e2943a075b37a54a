package templates

import (
	"context"
	"fmt"
	"io/fs"
	"path"

	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
)

// ParameterTransformer renders one template of a tree into YAML and takes
// the result as the new parameters: the way to map a component's spec onto
// the values a chart or kustomization expects. The template sees the
// incoming parameters as .Values.
type ParameterTransformer struct {
	src  *Source
	file string
}

var _ generators.ParameterTransformer = &ParameterTransformer{}

// NewParameterTransformer loads the directory of file (a slash-separated
// path in fsys), so that file may include the helpers beside it.
func NewParameterTransformer(fsys fs.FS, file string, opts Options) (*ParameterTransformer, error) {
	src, err := Load(fsys, path.Dir(file), opts)
	if err != nil {
		return nil, err
	}
	rel := path.Base(file)
	for _, f := range src.Files() {
		if f.Path == rel && !f.IsHelper() {
			return &ParameterTransformer{src: src, file: rel}, nil
		}
	}
	return nil, &generators.ConfigError{Field: "file", Err: fmt.Errorf("%q: %w", file, fs.ErrNotExist)}
}

// TransformParameters renders the template with the parameters and
// returns the YAML map it produced.
func (p *ParameterTransformer) TransformParameters(ctx context.Context, namespace, name string, parameters map[string]any) (map[string]any, error) {
	data, err := p.src.RenderFile(ctx, namespace, name, parameters, p.file)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, &generators.TemplateError{Template: p.file, Author: failure.AuthorOperator,
			Err: fmt.Errorf("output is not a YAML map: %w", err)}
	}
	return out, nil
}
