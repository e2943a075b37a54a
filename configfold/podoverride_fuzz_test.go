package configfold

import (
	"bytes"
	"testing"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// FuzzPodOverrideDecode checks, for arbitrary pod-override bytes, that a
// layer is either kept exactly as written or reported as ignored with at
// least one invalid-input error at an absolute path under its podOverrides,
// never both and never neither.
func FuzzPodOverrideDecode(f *testing.F) {
	for _, seed := range []string{
		`{"spec":{"containers":[{"name":"main","$patch":"replace"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"a"}]}}`,
		`{"spec":{"volumes":[{"name":"d","$retainKeys":["name","emtpyDir"]}]}}`,
		`{"spec":{"containres":[]}}`,
		`{"$patch":7}`,
		`[1,2]`,
		`{"metadata":{"labels":{"$patch":"replace"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := mergeOverrides(nil, nil, &v1alpha1.OverridesSpec{PodOverrides: raw(string(data))})
		if err != nil {
			t.Fatalf("MergeOverrides: %v", err)
		}
		switch {
		case len(got.PodOverrides) == 1 && len(got.IgnoredPodOverrides) == 0:
			if !bytes.Equal(got.PodOverrides[0].Patch, data) {
				t.Fatalf("kept patch %q differs from the input %q", got.PodOverrides[0].Patch, data)
			}
		case len(got.PodOverrides) == 0 && len(got.IgnoredPodOverrides) == 1:
			ignored := got.IgnoredPodOverrides[0]
			if len(ignored.Errors) == 0 {
				t.Fatalf("ignored layer of %q without an error", data)
			}
			for _, e := range ignored.Errors {
				if failure.ClassOf(e) != failure.ClassInvalid || !bytes.HasPrefix([]byte(e.FieldPath()), []byte(ignored.FieldPath)) {
					t.Fatalf("error %v of %q is not invalid input under %s", e, data, ignored.FieldPath)
				}
			}
		case len(got.PodOverrides) == 0 && len(got.IgnoredPodOverrides) == 0:
			if s := string(bytes.TrimSpace(data)); s != "" && s != "null" {
				t.Fatalf("%q was neither kept nor reported", data)
			}
		default:
			t.Fatalf("%q gave %d kept and %d ignored layers", data, len(got.PodOverrides), len(got.IgnoredPodOverrides))
		}
	})
}
