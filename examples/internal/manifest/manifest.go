// Package manifest reads the YAML manifests the examples embed: their
// CRDs and their sample resources.
package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// kustomization is the file beside the CRDs that lists them for
// kustomize (config/crd deploys them through it).
const kustomization = "kustomization.yaml"

// CRDs decodes every file of dir in fsys but its kustomization.yaml as a
// CustomResourceDefinition, strictly (a field the type does not know is an
// error).
func CRDs(fsys fs.FS, dir string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, e := range entries {
		if e.Name() == kustomization {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(b, crd); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", e.Name(), err)
		}
		out = append(out, crd)
	}
	return out, nil
}

// Objects decodes every document of the YAML file name in fsys.
func Objects(fsys fs.FS, name string) ([]*unstructured.Unstructured, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(raw), 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
