package apply_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/opkit-dev/opkit/apply"
)

func TestDigestIgnoresRepresentation(t *testing.T) {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "n", Labels: map[string]string{"x": "1"}},
		Data:       map[string]string{"b": "2", "a": "1"},
	}
	typed, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	require.NoError(t, err)
	b, err := json.Marshal(cm)
	require.NoError(t, err)
	var decoded map[string]any
	require.NoError(t, json.Unmarshal(b, &decoded))
	withServerFields := runtime.DeepCopyJSON(decoded)
	md := withServerFields["metadata"].(map[string]any)
	md["resourceVersion"], md["uid"], md["generation"] = "42", "u-1", int64(3)
	md["annotations"] = map[string]any{"demo.operators.opkit.dev/owner-id": "o"}

	tests := []struct {
		name    string
		content map[string]any
	}{
		{"typed conversion", typed},
		{"json round trip", decoded},
		{"server fields and own keys", withServerFields},
	}
	want, err := apply.Digest(typed, "demo.operators.opkit.dev/")
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := apply.Digest(tt.content, "demo.operators.opkit.dev/")
			require.NoError(t, err)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("digest (-want +got):\n%s", diff)
			}
		})
	}
	changed := runtime.DeepCopyJSON(decoded)
	changed["data"].(map[string]any)["a"] = "other"
	got, err := apply.Digest(changed, "demo.operators.opkit.dev/")
	require.NoError(t, err)
	require.NotEqual(t, want, got, "a content change must change the digest")
}

// FuzzDigestStableAcrossJSONRoundTrip builds nested objects from fuzz input
// and checks that their digest survives a JSON round trip.
func FuzzDigestStableAcrossJSONRoundTrip(f *testing.F) {
	f.Add([]byte(`{"b":1,"a":{"y":[1,2.5,"s",null],"x":true}}`))
	f.Add([]byte(`{"spec":{"replicas":3,"template":{"metadata":{"creationTimestamp":null}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var content map[string]any
		if json.Unmarshal(data, &content) != nil || content == nil {
			return
		}
		first, err := apply.Digest(content, "")
		if err != nil {
			return
		}
		b, err := json.Marshal(content)
		require.NoError(t, err)
		var again map[string]any
		require.NoError(t, json.Unmarshal(b, &again))
		second, err := apply.Digest(again, "")
		require.NoError(t, err)
		require.Equal(t, first, second)
		third, err := apply.Digest(content, "")
		require.NoError(t, err)
		require.Equal(t, first, third, "digest depends on map iteration order")
	})
}
