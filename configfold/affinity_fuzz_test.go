package configfold

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/randfill"
)

// FuzzAffinityRoundTrip checks decode(encode(x)) == normalize(x) for
// affinities filled from the fuzzer's bytes, empty lists and empty members
// included.
func FuzzAffinityRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x00\x01\x02\x03",
		"opkit affinity round trip",
		"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0",
		"nodeAffinity podAffinity podAntiAffinity weight topologyKey",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var x corev1.Affinity
		randfill.NewFromGoFuzz(data).NilChance(0.3).NumElements(0, 2).Fill(&x)
		enc, err := EncodeAffinity(&x)
		if err != nil {
			t.Fatalf("EncodeAffinity: %v", err)
		}
		got, err := DecodeAffinity(enc)
		if err != nil {
			t.Fatalf("DecodeAffinity(%s): %v", enc.Raw, err)
		}
		if diff := cmp.Diff(NormalizeAffinity(&x), got); diff != "" {
			t.Errorf("decode(encode(x)) != normalize(x) for %s (-normalize +decode):\n%s", enc.Raw, diff)
		}
	})
}
