package apply

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// volatileMetadata are fields the server owns; they never describe intent.
var volatileMetadata = []string{"creationTimestamp", "resourceVersion", "uid", "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"}

// Digest returns a short digest (12 characters) of an object's content in
// unstructured form (as produced by runtime.DefaultUnstructuredConverter or
// decoding JSON). It is stable across map order and JSON round trips,
// ignores null values and the metadata the server fills in, and ignores
// annotations and labels whose key starts with ignorePrefix (the
// engine's own bookkeeping; pass "" to keep all). The Engine uses
// it for unstructured objects; a typed object is digested from its own
// JSON encoding, which is as stable and several times faster, so the same
// object passed once typed and once unstructured is written once more.
func Digest(content map[string]any, ignorePrefix string) (string, error) {
	c := canonical(content).(map[string]any)
	if md, ok := c["metadata"].(map[string]any); ok {
		for _, f := range volatileMetadata {
			delete(md, f)
		}
		if ignorePrefix != "" {
			for _, f := range []string{"annotations", "labels"} {
				m, ok := md[f].(map[string]any)
				if !ok {
					continue
				}
				for k := range m {
					if strings.HasPrefix(k, ignorePrefix) {
						delete(m, k)
					}
				}
				if len(m) == 0 {
					delete(md, f)
				}
			}
		}
	}
	// encoding/json writes map keys sorted, which makes the encoding
	// canonical once numbers and nulls are normalised.
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("encoding object for its digest: %w", err)
	}
	return shortHash(b), nil
}

// shortHash is the first 72 bits of b's SHA-256, base64url-encoded (12
// characters): a digest is only ever compared with the previous digest of
// the same object, where a collision has a chance of 2^-72.
func shortHash(b []byte) string {
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

// canonical deep-copies v, dropping nil map values and turning every number
// with an integral value into int64, so that a typed object
// converted to unstructured and the same object decoded from JSON agree.
func canonical(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e == nil {
				continue
			}
			out[k] = canonical(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = canonical(e)
		}
		return out
	case int32:
		return int64(t)
	case int:
		return int64(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		if f, err := t.Float64(); err == nil {
			return canonical(f)
		}
		return t.String()
	default:
		return v
	}
}
