package templates_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

func Example() {
	tree := fstest.MapFS{
		"_labels.tpl": {Data: []byte(`{{ define "labels" }}app: {{ .Name }}{{ end }}`)},
		"configmap.yaml": {Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Name }}
  labels: { {{- include "labels" . -}} }
  annotations:
    {{ reconcilerName }}/apply-order: "1"
data:
  revision: {{ componentRevision | quote }}
  color: {{ .Values.color | default "blue" }}
`)},
	}
	g, err := templates.New(tree, ".", templates.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := generators.WithEnvironment(context.Background(), generators.Environment{
		ReconcilerName: "shop.example.com", Revision: 2,
	})
	objects, err := g.Generate(ctx, "shop", "web", map[string]any{"color": "green"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objects {
		fmt.Println(o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), o.GetLabels(), o.GetAnnotations())
	}
	// Output:
	// ConfigMap web map[app:web] map[shop.example.com/apply-order:1]
}
