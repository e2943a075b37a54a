package generators

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Concat returns a Generator that runs each of gens with the same input,
// in order, and returns their objects one list after the other: a component
// rendered from a Helm chart and a kustomization, say. The first failure
// stops it, naming the generator's position. Its fingerprint combines
// the parts'.
func Concat(gens ...Generator) Generator {
	return concatenated{parts: gens, GeneratorFunc: func(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
		var out []client.Object
		for i, g := range gens {
			objs, err := g.Generate(ctx, namespace, name, parameters)
			if err != nil {
				return nil, fmt.Errorf("generator %d of %d: %w", i+1, len(gens), err)
			}
			out = append(out, objs...)
		}
		return out, nil
	}}
}
