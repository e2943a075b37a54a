package generators_test

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/generators"
)

type fingerprinted string

func (f fingerprinted) Generate(context.Context, string, string, map[string]any) ([]client.Object, error) {
	return nil, nil
}

func (f fingerprinted) Fingerprint() string { return string(f) }

// A fingerprint depends on the files' paths and contents, not on their
// order; Concat's combines its parts' in order; a generator without one
// has none.
func TestFingerprints(t *testing.T) {
	a := []generators.SourceFile{{Path: "a.yaml", Data: []byte("1")}, {Path: "b.yaml", Data: []byte("2")}}
	b := []generators.SourceFile{{Path: "b.yaml", Data: []byte("2")}, {Path: "a.yaml", Data: []byte("1")}}
	if generators.FingerprintFiles(a) != generators.FingerprintFiles(b) {
		t.Error("the order of the files changed the fingerprint")
	}
	for name, other := range map[string][]generators.SourceFile{
		"content": {{Path: "a.yaml", Data: []byte("1")}, {Path: "b.yaml", Data: []byte("3")}},
		"path":    {{Path: "a.yaml", Data: []byte("1")}, {Path: "c.yaml", Data: []byte("2")}},
		"split":   {{Path: "a.yaml", Data: []byte("1b.yaml2")}},
	} {
		if generators.FingerprintFiles(a) == generators.FingerprintFiles(other) {
			t.Errorf("a changed %s kept the fingerprint", name)
		}
	}
	ab := generators.FingerprintOf(generators.Concat(fingerprinted("x"), fingerprinted("y")))
	if ab == "" || ab == generators.FingerprintOf(generators.Concat(fingerprinted("y"), fingerprinted("x"))) {
		t.Errorf("Concat's fingerprint %q does not follow its parts in order", ab)
	}
	if got := generators.FingerprintOf(generators.GeneratorFunc(nil)); got != "" {
		t.Errorf("a generator without a fingerprint has %q", got)
	}
}
