package helm_test

import (
	"context"
	"fmt"
	"os"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

func Example() {
	// A chart with a subchart, a library chart, CRDs and hooks; in an
	// operator, an embed.FS.
	g, err := helm.New(os.DirFS("testdata"), "webshop", helm.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := generators.WithEnvironment(context.Background(), generators.Environment{
		ReconcilerName: "shop.example.com",
		Revision:       1, // an install: install hooks run, upgrade hooks do not
	})
	objects, err := g.Generate(ctx, "shop", "front", map[string]any{"replicaCount": 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objects {
		fmt.Printf("%s %s [%s]\n", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), o.GetAnnotations()["shop.example.com/apply-order"])
	}
	// Output:
	// CustomResourceDefinition widgets.shop.example.com []
	// ConfigMap front-cache []
	// ConfigMap front-webshop []
	// Secret front-credentials []
	// Deployment front-webshop []
	// Job front-migrate [-16389]
	// ConfigMap front-welcome [16384]
}
