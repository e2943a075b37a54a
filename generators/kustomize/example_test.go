package kustomize_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opkit-dev/opkit/generators/kustomize"
)

func Example() {
	tree := fstest.MapFS{
		"kustomization.yaml": {Data: []byte(`namePrefix: {{ .Name }}-
resources: [deployment.yaml]
images:
- name: nginx
  newTag: {{ .Values.tag | quote }}
`)},
		"deployment.yaml": {Data: []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: server}
spec:
  selector: {matchLabels: {app: server}}
  template:
    metadata: {labels: {app: server}}
    spec: {containers: [{name: nginx, image: nginx}]}
`)},
	}
	g, err := kustomize.New(tree, ".", kustomize.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	objects, err := g.Generate(context.Background(), "shop", "web", map[string]any{"tag": "1.27"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objects {
		image, _, _ := unstructured.NestedSlice(o.(*unstructured.Unstructured).Object, "spec", "template", "spec", "containers")
		fmt.Println(o.GetName(), image[0].(map[string]any)["image"])
	}
	// Output:
	// web-server nginx:1.27
}
