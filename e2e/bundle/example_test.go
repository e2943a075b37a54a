package bundle_test

import (
	"context"
	"fmt"

	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/generators"
)

// A bundle's generator renders its objects from the spec's parameters,
// here outside any cluster.
func ExampleGenerator() {
	gen, err := bundle.Generator()
	if err != nil {
		panic(err)
	}
	ctx := generators.WithEnvironment(context.Background(), generators.Environment{ReconcilerName: "bundle.example.com"})
	objs, err := gen.Generate(ctx, "shop", "front", map[string]any{"configMaps": 2, "replicas": 1, "message": "hello"})
	if err != nil {
		panic(err)
	}
	for _, o := range objs {
		fmt.Println(o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
	}
	// Output:
	// ConfigMap front-0000
	// ConfigMap front-0001
	// Deployment front-web
	// Service front-web
}
