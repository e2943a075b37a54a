package generators

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ParameterTransformer turns a component's parameters into the parameters
// a generator expects: defaults, renames, values computed from the spec.
// It must not change its input; it returns a new map or the same one.
type ParameterTransformer interface {
	TransformParameters(ctx context.Context, namespace, name string, parameters map[string]any) (map[string]any, error)
}

// ObjectTransformer adapts the objects a generator rendered: labels,
// annotations, objects to add or drop. It may change the objects it is
// given, which belong to the rendering.
type ObjectTransformer interface {
	TransformObjects(ctx context.Context, namespace, name string, objects []client.Object) ([]client.Object, error)
}

// ParameterTransformerFunc is a function that is a ParameterTransformer.
type ParameterTransformerFunc func(ctx context.Context, namespace, name string, parameters map[string]any) (map[string]any, error)

// TransformParameters calls f.
func (f ParameterTransformerFunc) TransformParameters(ctx context.Context, namespace, name string, parameters map[string]any) (map[string]any, error) {
	return f(ctx, namespace, name, parameters)
}

// ObjectTransformerFunc is a function that is an ObjectTransformer.
type ObjectTransformerFunc func(ctx context.Context, namespace, name string, objects []client.Object) ([]client.Object, error)

// TransformObjects calls f.
func (f ObjectTransformerFunc) TransformObjects(ctx context.Context, namespace, name string, objects []client.Object) ([]client.Object, error) {
	return f(ctx, namespace, name, objects)
}

// Transformed is a Generator with transformers around it: the parameter
// transformers run in order before it, each on the previous one's output,
// and the object transformers in order after it. A Transformed is itself a
// Generator, so transformations nest.
type Transformed struct {
	// Generator renders the objects. Required.
	Generator Generator
	// Parameters run before the generator, in order.
	Parameters []ParameterTransformer
	// Objects run after the generator, in order.
	Objects []ObjectTransformer
}

// Transform returns g wrapped in the given transformers.
func Transform(g Generator, parameters []ParameterTransformer, objects []ObjectTransformer) *Transformed {
	return &Transformed{Generator: g, Parameters: parameters, Objects: objects}
}

// Generate runs the parameter transformers, the generator and the object
// transformers; the first error stops it.
func (t *Transformed) Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
	var err error
	for _, p := range t.Parameters {
		if parameters, err = p.TransformParameters(ctx, namespace, name, parameters); err != nil {
			return nil, err
		}
	}
	objects, err := t.Generator.Generate(ctx, namespace, name, parameters)
	if err != nil {
		return nil, err
	}
	for _, o := range t.Objects {
		if objects, err = o.TransformObjects(ctx, namespace, name, objects); err != nil {
			return nil, err
		}
	}
	return objects, nil
}

var (
	_ Generator            = &Transformed{}
	_ ParameterTransformer = ParameterTransformerFunc(nil)
	_ ObjectTransformer    = ObjectTransformerFunc(nil)
)
