package component

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A record keeps the render encoded; each pass decodes copies of its own,
// typed objects come back unstructured with their type, and a Secret whose
// objects do not decode is refused.
func TestRecordKeepsTheRenderEncoded(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "settings", Labels: map[string]string{"app": "shop"}},
		Data: map[string]string{"greeting": "welcome"}}
	svc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"namespace": "ns", "name": "front"},
		"spec":     map[string]any{"ports": []any{map[string]any{"port": int64(80)}}},
	}}
	rec, err := newRecord("uid-1", "digest-1", 3, []client.Object{cm, svc}, scheme, &compressors{})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"namespace": "ns", "name": "settings", "labels": map[string]any{"app": "shop"}},
			"data":     map[string]any{"greeting": "welcome"},
		},
		svc.Object,
	}
	decoded := func() []map[string]any {
		t.Helper()
		objects, ok := rec.reuse("digest-1", 3)
		if !ok {
			t.Fatal("the record of the same inputs and revision is not reused")
		}
		out := make([]map[string]any, len(objects))
		for i, o := range objects {
			out[i] = o.(*unstructured.Unstructured).Object
		}
		return out
	}
	first := decoded()
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("recorded objects (-want +got):\n%s", diff)
	}
	first[0]["data"].(map[string]any)["greeting"] = "changed by a pass"
	svc.Object["kind"] = "Changed after recording"
	if diff := cmp.Diff(want[0], decoded()[0]); diff != "" {
		t.Errorf("a pass's change reached the record (-want +got):\n%s", diff)
	}
	if got := decoded()[1]["kind"]; got != "Service" {
		t.Errorf("a change of the rendered object after recording reached the record: kind %v", got)
	}

	if _, ok := rec.reuse("digest-2", 3); ok {
		t.Error("the record of other inputs is reused")
	}
	if _, ok := rec.reuse("digest-1", 4); ok {
		t.Error("the record of another revision is reused")
	}

	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "front-render"}, Data: map[string][]byte{
		recordUIDKey: []byte("uid-1"), recordDigestKey: []byte("digest-1"), recordRevisionKey: []byte("3"), recordObjectsKey: rec.objects,
	}}
	read, err := decodeRecord(s)
	if err != nil {
		t.Fatal(err)
	}
	if read.uid != "uid-1" || read.digest != "digest-1" || read.revision != 3 {
		t.Errorf("record read back as uid %q, digest %q, revision %d", read.uid, read.digest, read.revision)
	}
	s.Data[recordObjectsKey] = []byte("not gzip")
	if _, err := decodeRecord(s); err == nil {
		t.Error("a record whose objects do not decode was read")
	}
}

// Compressors reuse their writers: each encoding decodes to its own
// objects, byte for byte what a new writer makes, whatever was encoded
// before it.
func TestCompressorsReuseTheirWriters(t *testing.T) {
	inputs := [][]map[string]any{
		{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}, "data": map[string]any{"k": "a long value that the next input does not have"}}},
		{{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "b"}}},
		{},
	}
	var zip compressors
	for i, in := range inputs {
		got, err := zip.encode(in)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		fresh, err := (&compressors{}).encode(in)
		if err != nil {
			t.Fatalf("input %d, a new writer: %v", i, err)
		}
		if diff := cmp.Diff(fresh, got); diff != "" {
			t.Errorf("input %d: a reused writer's bytes differ from a new one's (-new +reused):\n%s", i, diff)
		}
		objects, err := decodeObjects(got)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		decoded := make([]map[string]any, len(objects))
		for j, o := range objects {
			decoded[j] = o.(*unstructured.Unstructured).Object
		}
		if diff := cmp.Diff(in, decoded); diff != "" {
			t.Errorf("input %d decoded (-want +got):\n%s", i, diff)
		}
	}
}
