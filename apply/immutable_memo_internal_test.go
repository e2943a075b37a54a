package apply

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// liveSTS is sts as a live object: unstructured, with a UID, a generation
// and a resourceVersion.
func liveSTS(t *testing.T, sts *appsv1.StatefulSet, uid types.UID, generation int64, rv string) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sts.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(appsv1.SchemeGroupVersion.WithKind("StatefulSet"))
	u.SetNamespace("ns")
	u.SetName("db")
	u.SetUID(uid)
	u.SetGeneration(generation)
	u.SetResourceVersion(rv)
	return u
}

// desiredSTS is sts as a desired object of digest.
func desiredSTS(sts *appsv1.StatefulSet, digest string) *desired {
	d := &desired{obj: sts.DeepCopy(), gvk: appsv1.SchemeGroupVersion.WithKind("StatefulSet"), digest: digest}
	d.obj.SetNamespace("ns")
	d.obj.SetName("db")
	d.setRef()
	return d
}

// The memo answers as ignoredIn does, computing again whenever the desired
// state, the object or the live object's generation changed, and from
// memory while only its status (its resourceVersion) did.
func TestIgnoredMemo(t *testing.T) {
	small, large := stsWith("db", served(claim("data", "1Gi"))), stsWith("db", served(claim("data", "5Gi")))
	want := stsWith("db", claim("data", "5Gi"))
	steps := []struct {
		name string
		d    *desired
		live *unstructured.Unstructured
		// stale: the answer is the memory of an earlier step, not what
		// ignoredIn says now (a change no generation shows, which the API
		// server never makes).
		stale   bool
		ignored bool
	}{
		{name: "first look: the claim differs", d: desiredSTS(want, "d1"), live: liveSTS(t, small, "u1", 1, "10"), ignored: true},
		{name: "status change: from memory", d: desiredSTS(want, "d1"), live: liveSTS(t, small, "u1", 1, "11"), ignored: true},
		{name: "same generation, other spec: from memory", d: desiredSTS(want, "d1"), live: liveSTS(t, large, "u1", 1, "12"), stale: true, ignored: true},
		{name: "new generation: computed again", d: desiredSTS(want, "d1"), live: liveSTS(t, large, "u1", 2, "13")},
		{name: "new desired state: computed again", d: desiredSTS(stsWith("db", claim("data", "9Gi")), "d2"), live: liveSTS(t, large, "u1", 2, "13"), ignored: true},
		{name: "another object of the name: computed again", d: desiredSTS(want, "d1"), live: liveSTS(t, small, "u2", 2, "14"), ignored: true},
	}
	var m ignoredMemo
	m.drop(steps[0].d.key) // nothing to drop yet
	for _, s := range steps {
		got := m.ignored(s.d, s.live)
		fresh := ignoredIn(s.d, s.live)
		if (len(got.IgnoredFields) > 0) != s.ignored {
			t.Errorf("%s: ignored fields %v, want some: %v", s.name, got.IgnoredFields, s.ignored)
		}
		if diff := cmp.Diff(fresh, got); (diff != "") != s.stale {
			t.Errorf("%s: memo and ignoredIn (-fresh +memo), stale %v:\n%s", s.name, s.stale, diff)
		}
	}
	// Dropped, the object is looked at afresh, though nothing the memo
	// compares changed.
	m.drop(steps[0].d.key)
	if got := m.ignored(desiredSTS(want, "d1"), liveSTS(t, large, "u2", 2, "14")); len(got.IgnoredFields) > 0 {
		t.Errorf("after drop: ignored fields %v, want none, computed afresh", got.IgnoredFields)
	}
}
