package bundle

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

//go:embed manifests
var manifests embed.FS

//go:embed crd/bundle.e2e.opkit.dev_bundles.yaml
var crd []byte

// Generator returns the bundle's generator: the templates of manifests/.
func Generator() (generators.Generator, error) {
	return templates.New(manifests, "manifests", templates.Options{})
}

// Kinds returns the kinds a bundle renders.
func Kinds() []schema.GroupVersionKind {
	return []schema.GroupVersionKind{
		corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		corev1.SchemeGroupVersion.WithKind("Service"),
		appsv1.SchemeGroupVersion.WithKind("Deployment"),
	}
}

// CRDs returns a fresh copy of the Bundle CRD.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(crd), 4096)
	for {
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := dec.Decode(c); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, errors.New("the Bundle CRD manifest holds no CRD")
			}
			return nil, fmt.Errorf("decoding the Bundle CRD: %w", err)
		}
		if c.Name != "" {
			return []*apiextensionsv1.CustomResourceDefinition{c}, nil
		}
	}
}
