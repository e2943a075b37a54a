package offline_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/reconciler/internal/offline"
)

func configMap(ns, name, rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv}, Data: map[string]string{"k": name}}
}

func scheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// The cluster in memory holds the objects given, and reads find them and
// nothing else, whatever version they carried.
func TestReadsFindTheObjectsGiven(t *testing.T) {
	c, err := offline.New(scheme(t), []client.Object{configMap("a", "one", "123"), configMap("b", "one", ""),
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s"},
			Data: map[string][]byte{"a": []byte("data"), "b": []byte("data")}, StringData: map[string]string{"b": "string"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := &corev1.ConfigMap{}
	if err := c.Client.Get(t.Context(), client.ObjectKey{Namespace: "a", Name: "one"}, got); err != nil {
		t.Fatalf("the object given is not found: %v", err)
	}
	if got.Data["k"] != "one" {
		t.Errorf("read %v, want the object given", got.Data)
	}
	list := &corev1.ConfigMapList{}
	if err := c.Client.List(t.Context(), list, client.InNamespace("b")); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Errorf("namespace b lists %d ConfigMaps, want 1", len(list.Items))
	}
	if err := c.Client.Get(t.Context(), client.ObjectKey{Namespace: "a", Name: "two"}, got); err == nil {
		t.Error("an object not given is found")
	}
	secret := &corev1.Secret{}
	if err := c.Client.Get(t.Context(), client.ObjectKey{Namespace: "a", Name: "s"}, secret); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string][]byte{"a": []byte("data"), "b": []byte("string")}, secret.Data); diff != "" || secret.StringData != nil {
		t.Errorf("a Secret's stringData is not read as data, as the API server stores it (-want +got):\n%s", diff)
	}
	c.Recorder.Eventf(got, nil, corev1.EventTypeNormal, "Reason", "Action", "dropped") // must not block
}

// Objects the cluster cannot hold are refused, naming them.
func TestBadObjectsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name    string
		objects []client.Object
		want    string
	}{
		{"twice the same", []client.Object{configMap("a", "x", ""), configMap("b", "x", ""), configMap("a", "x", "")},
			"objects 1 and 3 are both ConfigMap a/x"},
		{"no name", []client.Object{configMap("a", "", "")}, "object 1 (a/)"},
		{"a kind the scheme does not know", []client.Object{configMap("a", "x", ""), &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "y"}}},
			"object 2 (/y)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := offline.New(scheme(t), tc.objects)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	if _, err := offline.New(scheme(t), nil); err != nil {
		t.Errorf("an empty cluster: %v", err)
	}
}
