package servertest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

func TestNoOpPassMakesNoWrites(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	var objects []client.Object
	for i := range 20 {
		objects = append(objects, configMap(f.ns, "cm-"+string(rune('a'+i)), map[string]string{"k": "v"}, nil))
	}
	f.applyUntilReady(objects...)

	before := f.counter.Snapshot()
	res, err := f.r.Apply(t.Context(), &f.inv, objects, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	delta := f.counter.Snapshot().Sub(before)
	require.Equal(t, 0, delta.Writes(), "no-op pass wrote: %s", delta)
	require.LessOrEqual(t, delta.Total(), len(objects), "no-op pass made more than one request per object: %s", delta)
}

func TestLiveEditIsRevertedOnNextPass(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	cm := configMap(f.ns, "edited", map[string]string{"k": "desired"}, nil)
	f.applyUntilReady(cm)

	// Someone else edits the object, as kubectl edit would.
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	live.Data["k"] = "edited"
	require.NoError(t, f.c.Update(t.Context(), live))

	before := f.counter.Snapshot()
	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	require.Equal(t, 1, f.counter.Snapshot().Sub(before).Writes())
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	if diff := cmp.Diff(map[string]string{"k": "desired"}, live.Data); diff != "" {
		t.Fatalf("edit not reverted (-want +got):\n%s", diff)
	}
}

// A revert writes the object and changes nothing the caller persists: the
// inventory stays as it was, so the caller has no status to write. An
// engine started afresh over that inventory (an operator restart) takes
// the reverted object as it is, without a write.
func TestRevertLeavesTheInventoryAsItWas(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	cm := configMap(f.ns, "edited", map[string]string{"k": "desired"}, nil)
	f.applyUntilReady(cm)
	recorded := *f.inv.DeepCopy()

	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	live.Data["k"] = "edited"
	require.NoError(t, f.c.Update(t.Context(), live))
	for pass, want := range []int{1, 0} {
		before := f.counter.Snapshot()
		_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
		require.NoError(t, err)
		require.Equal(t, want, f.counter.Snapshot().Sub(before).Writes(), "pass %d after the edit", pass+1)
		if diff := cmp.Diff(recorded, f.inv); diff != "" {
			t.Fatalf("pass %d after the edit changed the inventory (-before +after):\n%s", pass+1, diff)
		}
	}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(cm), live))
	require.Equal(t, "desired", live.Data["k"])

	restarted, err := apply.New(name, f.c, apply.Options{})
	require.NoError(t, err)
	before := f.counter.Snapshot()
	_, err = restarted.Apply(t.Context(), &f.inv, []client.Object{cm}, f.pass())
	require.NoError(t, err)
	require.Equal(t, 0, f.counter.Snapshot().Sub(before).Writes(), "a restarted engine rewrote a reverted object")
	if diff := cmp.Diff(recorded, f.inv); diff != "" {
		t.Fatalf("the restarted engine changed the inventory (-before +after):\n%s", diff)
	}
}

func TestOneObjectChangeWritesOneObject(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	a := configMap(f.ns, "a", map[string]string{"k": "1"}, nil)
	b := configMap(f.ns, "b", map[string]string{"k": "1"}, nil)
	f.applyUntilReady(a, b)

	b = configMap(f.ns, "b", map[string]string{"k": "2"}, nil)
	before := f.counter.Snapshot()
	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{a, b}, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	require.Equal(t, 1, f.counter.Snapshot().Sub(before).Writes())
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(b), live))
	require.Equal(t, "2", live.Data["k"])
	require.Equal(t, f.find(schemaGK("", "ConfigMap"), f.ns, "b").Digest, live.Annotations[key(apply.AnnotationDigest)])
}

func TestMetadataEditOfGenerationTrackedObjectIsReverted(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	deploy := deployment(f.ns, "web", nil)
	deploy.Labels = map[string]string{"tier": "web"}
	f.applyUntilReady(deploy)

	// Label edits do not change the generation.
	live := &appsv1.Deployment{}
	require.NoError(t, f.c.Patch(t.Context(), deployment(f.ns, "web", nil), client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"tier":null}}}`))))
	f.applyUntilReady(deploy)
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(deploy), live))
	require.Equal(t, "web", live.Labels["tier"])
}
