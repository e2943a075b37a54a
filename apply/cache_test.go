package apply_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/opkit-dev/opkit/apply"
)

// The manager options select, per managed kind, the objects carrying the
// reconciler's owner label (any owner), strip managed fields and cache
// unstructured reads.
func TestManagerOptions(t *testing.T) {
	const name = "shop.operators.example.com"
	kinds := []string{"ConfigMap", "StatefulSet"}
	cacheOpts, clientOpts := apply.ManagerOptions(name,
		corev1.SchemeGroupVersion.WithKind("ConfigMap"), appsv1.SchemeGroupVersion.WithKind("StatefulSet"))

	var got []string
	for obj, by := range cacheOpts.ByObject {
		kind := obj.GetObjectKind().GroupVersionKind().Kind
		got = append(got, kind)
		owned := labels.Set{name + "/owner-id": "0123"}
		if by.Label == nil || !by.Label.Matches(owned) || by.Label.Matches(labels.Set{"app": "shop"}) {
			t.Errorf("%s: selector %v must select exactly the labelled objects", kind, by.Label)
		}
	}
	if diff := cmp.Diff(kinds, sorted(got)); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if cacheOpts.DefaultTransform == nil {
		t.Error("managed fields are not stripped")
	}
	if clientOpts.Cache == nil || !clientOpts.Cache.Unstructured {
		t.Error("unstructured reads are not cached")
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
