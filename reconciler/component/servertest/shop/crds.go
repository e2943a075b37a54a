package shop

import (
	"bytes"
	_ "embed" // the CRD manifest
	"errors"
	"fmt"
	"io"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

//go:embed crd/shop.opkit.dev_shops.yaml
var manifest []byte

// CRDs returns a fresh copy of the Shop CRD.
func CRDs() ([]*apiextensionsv1.CustomResourceDefinition, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifest), 4096)
	for {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := dec.Decode(crd); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, errors.New("the Shop CRD manifest holds no CRD")
			}
			return nil, fmt.Errorf("decoding the Shop CRD: %w", err)
		}
		if crd.Name != "" {
			return []*apiextensionsv1.CustomResourceDefinition{crd}, nil
		}
	}
}
