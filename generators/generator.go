package generators

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Generator renders the objects of one component.
//
// Generate receives the component's namespace and name and its parameters
// (usually its spec, as a JSON-like map), and reads what else it needs from
// EnvironmentFrom(ctx). It must not change parameters, must return the
// same objects for the same input (the object engine compares digests,
// so a different rendering is a write), and returns the objects in a
// deterministic order. Namespaced objects without a namespace are meant
// for the component's namespace; the caller (the object engine's
// default namespace) sets it. The generators of this module return
// *unstructured.Unstructured objects.
type Generator interface {
	Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error)
}

// GeneratorFunc is a function that is a Generator.
type GeneratorFunc func(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error)

// Generate calls f.
func (f GeneratorFunc) Generate(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
	return f(ctx, namespace, name, parameters)
}

var _ Generator = GeneratorFunc(nil)
