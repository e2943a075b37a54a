package component

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// digestInput is what the component digest covers. encoding/json writes
// map keys sorted, so equal inputs give equal bytes.
type digestInput struct {
	Annotations map[string]string `json:"a,omitempty"`
	Parameters  map[string]any    `json:"p"`
	Custom      []string          `json:"c,omitempty"`
	Generator   string            `json:"f,omitempty"`
}

// componentDigest hashes the effective input of a rendering: the
// component's input annotations, its parameters (the spec) with the data
// of every reference loaded into them, the digests of custom references,
// and the generator's fingerprint. Two passes over the same input give the
// same digest; any change of it, a referenced Secret's data or a new chart
// included, changes the digest. What is not an input (another annotation,
// a label, the status) does not.
func componentDigest(annotations map[string]string, parameters map[string]any, custom []string, generator string) (string, error) {
	b, err := json.Marshal(digestInput{Annotations: annotations, Parameters: parameters, Custom: custom, Generator: generator})
	if err != nil {
		return "", fmt.Errorf("encoding the component digest input: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:20]), nil
}

// digestAnnotations returns the input annotations of a component that
// reach the rendering: all but the one that turns object events on or
// off, which changes no object.
func (r *Reconciler[T]) digestAnnotations(c client.Object) map[string]string {
	a := r.inputAnnotations(c)
	delete(a, r.objectEventsKey())
	return a
}

// inputAnnotations returns the annotations of a component that are inputs
// of its rendering: those under the reconciler's name ("<name>/…"). Any
// other annotation (a note, a tool's bookkeeping) changes nothing.
func (r *Reconciler[T]) inputAnnotations(c client.Object) map[string]string {
	var out map[string]string
	for k, v := range c.GetAnnotations() {
		if strings.HasPrefix(k, r.name+"/") {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}
