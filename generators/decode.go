package generators

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
)

// Decode splits rendered YAML (documents separated by "---") into objects,
// in document order, skipping empty documents. A document that is not a
// Kubernetes object (no apiVersion or kind, or not YAML) is a
// *TemplateError naming source, blamed on the operator's author.
func Decode(source string, data []byte) ([]*unstructured.Unstructured, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []*unstructured.Unstructured
	for i := 1; ; i++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		bad := func(err error) error {
			return &TemplateError{Template: source, Author: failure.AuthorOperator,
				Err: fmt.Errorf("document %d: %w", i, err)}
		}
		if err != nil {
			return nil, bad(err)
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, bad(err)
		}
		if t := bytes.TrimSpace(js); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(js); err != nil {
			return nil, bad(err)
		}
		if u.GetAPIVersion() == "" {
			return nil, bad(errors.New("apiVersion is missing"))
		}
		out = append(out, u)
	}
}
