package component

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// digestInput is what the component digest covers. encoding/json writes
// map keys sorted, so equal inputs give equal bytes.
type digestInput struct {
	Generation  int64             `json:"g"`
	Annotations map[string]string `json:"a,omitempty"`
	Parameters  map[string]any    `json:"p"`
	Custom      []string          `json:"c,omitempty"`
}

// componentDigest hashes the effective input of a rendering: the
// component's generation and annotations, and its parameters with the
// data of every reference loaded into them, plus the digests of custom
// references. Two passes over the same input give the same digest; any
// change of it, a referenced Secret's data included, changes the digest.
func componentDigest(generation int64, annotations map[string]string, parameters map[string]any, custom []string) (string, error) {
	b, err := json.Marshal(digestInput{Generation: generation, Annotations: annotations, Parameters: parameters, Custom: custom})
	if err != nil {
		return "", fmt.Errorf("encoding the component digest input: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:20]), nil
}
