package sample

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// manifests holds the generated CRD YAML files.
//
//go:embed crd/*.yaml
var manifests embed.FS

// CRDs returns freshly decoded copies of the sample CRDs, sorted by name,
// so callers may modify them. Pass them to controlplane.Options.CRDs.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	return decodeCRDs(manifests)
}

// MustCRDs is CRDs for package-level initialisation, such as a test
// package's testkit.Env. The manifests are generated and embedded at build
// time and this package's tests decode them, so the panic only fires for a
// build whose generated files were damaged.
func MustCRDs() []*apiextensionsv1.CustomResourceDefinition {
	crds, err := CRDs()
	if err != nil {
		panic(fmt.Sprintf("sample: the embedded CRD manifests do not decode: %v", err)) //nolint:forbidigo // a Must function, for a build whose embedded files are damaged
	}
	return crds
}

func decodeCRDs(fsys fs.FS) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	entries, err := fs.ReadDir(fsys, "crd")
	if err != nil {
		return nil, err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, e := range entries {
		b, err := fs.ReadFile(fsys, path.Join("crd", e.Name()))
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
		for {
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := dec.Decode(crd); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("%s: %w", e.Name(), err)
			}
			if crd.Name == "" {
				continue // an empty document
			}
			crds = append(crds, crd)
		}
	}
	slices.SortFunc(crds, func(a, b *apiextensionsv1.CustomResourceDefinition) int {
		return strings.Compare(a.Name, b.Name)
	})
	return crds, nil
}
