package servertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

var configMapKind = corev1.SchemeGroupVersion.WithKind("ConfigMap")

// A pass whose inventory was never persisted leaves labelled objects
// behind; the next pass finds them by the owner label and deletes those
// that left the set.
func TestLostInventoryLeaksNothing(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}})
	f.applyUntilReady(configMap(f.ns, "a", nil, nil), configMap(f.ns, "b", nil, nil))
	f.inv = inventory.Inventory{} // the status write was lost

	f.applyUntilReady()
	for _, n := range []string{"a", "b"} {
		require.False(t, exists(t, f, configMap(f.ns, n, nil, nil)), "%s leaked", n)
	}
	require.Empty(t, f.inv.Items)
}

func TestReleasedObjectsLeaveTheInventoryWithoutADelete(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}})
	f.applyUntilReady(configMap(f.ns, "keep", nil, nil), configMap(f.ns, "handed-over", nil, nil))

	pass := f.pass()
	pass.Release = func(ref inventory.Ref) bool { return ref.Name == "handed-over" }
	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{configMap(f.ns, "keep", nil, nil)}, pass)
	require.NoError(t, err)
	require.True(t, res.Done)
	require.True(t, exists(t, f, configMap(f.ns, "handed-over", nil, nil)), "a released object was deleted")
	require.Nil(t, f.find(schemaGK("", "ConfigMap"), f.ns, "handed-over"))
	want := map[string]apply.Action{"ConfigMap " + f.ns + "/keep": apply.ActionUnchanged, "ConfigMap " + f.ns + "/handed-over": apply.ActionReleased}
	if diff := cmp.Diff(want, actions(res)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}

	// It is no longer marked as ours: a later pass, which looks for strays
	// by the owner label, neither takes it back nor deletes it.
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "handed-over"}, live))
	require.NotContains(t, live.Labels, key(apply.AnnotationOwnerID))
	require.NotContains(t, live.Annotations, key(apply.AnnotationOwnerID))
	res, err = f.r.Apply(t.Context(), &f.inv, []client.Object{configMap(f.ns, "keep", nil, nil)}, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done)
	require.Equal(t, map[string]apply.Action{"ConfigMap " + f.ns + "/keep": apply.ActionUnchanged}, actions(res))
	require.True(t, exists(t, f, live))
}

// An object orphaned by its delete policy is not found again as a stray
// and deleted on a later pass.
func TestOrphanedObjectsStayOrphaned(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}})
	kept := configMap(f.ns, "kept", nil, map[string]string{key(apply.AnnotationDeletePolicy): string(apply.DeletePolicyOrphan)})
	f.applyUntilReady(kept)
	res := f.applyUntilReady()
	require.Equal(t, apply.ActionOrphaned, actions(res)["ConfigMap "+f.ns+"/kept"])
	res = f.applyUntilReady()
	require.Empty(t, res.Changes)
	require.True(t, exists(t, f, kept), "an orphaned object was deleted on a later pass")
}

// With change hints, a pass reads only what changed.
func TestChangedHintsBoundTheWork(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	var objects []client.Object
	for i := range 20 {
		objects = append(objects, configMap(f.ns, fmt.Sprintf("cm-%d", i), map[string]string{"k": "v"}, nil))
	}
	f.applyUntilReady(objects...)

	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: "cm-7"}, live))
	live.Data["k"] = "edited"
	require.NoError(t, f.c.Update(t.Context(), live))

	pass := f.pass()
	pass.Changed = []inventory.Key{inventory.KeyOf(schemaGK("", "ConfigMap"), f.ns, "cm-7")}
	before := f.counter.Snapshot()
	res, err := f.r.Apply(t.Context(), &f.inv, objects, pass)
	require.NoError(t, err)
	require.True(t, res.Done)
	delta := f.counter.Snapshot().Sub(before)
	require.Equal(t, 1, delta.Writes(), "the edit was not reverted")
	require.LessOrEqual(t, delta.Reads(), 2, "unchanged objects were read: %v", delta)
	require.Equal(t, apply.ActionUpdated, actions(res)["ConfigMap "+f.ns+"/cm-7"])
}

// A kind without a generation whose status changes (a PVC being bound) is
// not rewritten: only the fields the desired object states count.
func TestStatusOnlyChangeIsNotAnEdit(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "data"},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
		},
	}
	_, err := f.r.Apply(t.Context(), &f.inv, []client.Object{pvc}, f.pass())
	require.NoError(t, err)

	live := &corev1.PersistentVolumeClaim{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(pvc), live))
	live.Status.Phase = corev1.ClaimBound
	live.Status.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	live.Status.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}
	require.NoError(t, f.c.Status().Update(t.Context(), live))

	before := f.counter.Snapshot()
	_, err = f.r.Apply(t.Context(), &f.inv, []client.Object{pvc}, f.pass())
	require.NoError(t, err)
	require.Zero(t, f.counter.Snapshot().Sub(before).Writes(), "a status change was taken for an edit")

	// A real edit of a stated field is still reverted.
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(pvc), live))
	live.Labels = map[string]string{"x": "y"}
	live.Spec.Resources.Requests[corev1.ResourceStorage] = resource.MustParse("2Gi")
	err = f.c.Update(t.Context(), live)
	if err == nil { // resizing needs an expandable storage class; skip the edit otherwise
		before = f.counter.Snapshot()
		_, err = f.r.Apply(t.Context(), &f.inv, []client.Object{pvc}, f.pass())
		require.NoError(t, err)
		require.NotZero(t, f.counter.Snapshot().Sub(before).Writes())
	}
}

// Nothing is rewritten by default however much time passes; the
// reapply-interval annotation turns the periodic rewrite on per object.
func TestReapplyIntervalIsOptInPerObject(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f := newFixture(t, "owner-a", apply.Options{Clock: clk})
	objects := []client.Object{
		configMap(f.ns, "plain", nil, nil),
		configMap(f.ns, "refreshed", nil, map[string]string{key(apply.AnnotationReapplyInterval): "10m"}),
	}
	f.applyUntilReady(objects...)
	clk.Step(48 * time.Hour)
	res, err := f.r.Apply(t.Context(), &f.inv, objects, f.pass())
	require.NoError(t, err)
	want := map[string]apply.Action{"ConfigMap " + f.ns + "/plain": apply.ActionUnchanged, "ConfigMap " + f.ns + "/refreshed": apply.ActionUpdated}
	if diff := cmp.Diff(want, actions(res)); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// Delete reports done only once the objects are gone, and its changes say
// where each one is.
func TestDeleteReportsChanges(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	held := configMap(f.ns, "held", nil, nil)
	held.Finalizers = []string{"example.com/hold"}
	f.applyUntilReady(held)

	res, err := f.r.Delete(t.Context(), &f.inv, f.pass())
	require.NoError(t, err)
	require.False(t, res.Done)
	require.Equal(t, apply.ActionDeleting, actions(res)["ConfigMap "+f.ns+"/held"])
	require.Len(t, f.inv.Items, 1, "an item left before its object was gone")

	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(held), live))
	live.Finalizers = nil
	require.NoError(t, f.c.Update(t.Context(), live))
	res, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (apply.Result, bool, error) {
		res, err := f.r.Delete(ctx, &f.inv, f.pass())
		return res, err == nil && res.Done, err
	}, time.Minute)
	require.NoError(t, err)
	require.Equal(t, apply.ActionDeleted, actions(res)["ConfigMap "+f.ns+"/held"])
}

// actions maps each object of a result to its action.
func actions(res apply.Result) map[string]apply.Action {
	out := map[string]apply.Action{}
	for _, c := range res.Changes {
		out[c.Object.String()] = c.Action
	}
	return out
}

// A pass starting from the inventory the engine's last pass of the owner
// left does not search for strays (no list of the owner's kinds); one
// starting from another (a status write lost, an engine started afresh)
// does, and finds what the lost inventory held.
func TestStraysAreSearchedOnlyWhenTheInventoryIsNotTheLastPassOwn(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{Kinds: []schema.GroupVersionKind{configMapKind}})
	f.applyUntilReady(configMap(f.ns, "a", nil, nil))
	listed := apicount.Key{Verb: "list", Resource: "configmaps"}

	before := f.counter.Snapshot()
	f.applyUntilReady(configMap(f.ns, "a", nil, nil))
	require.Zero(t, f.counter.Snapshot().Sub(before)[listed], "a pass from its own inventory searched for strays")

	f.inv = inventory.Inventory{} // the status write was lost
	before = f.counter.Snapshot()
	f.applyUntilReady()
	require.NotZero(t, f.counter.Snapshot().Sub(before)[listed], "a pass from a lost inventory did not search for strays")
	require.False(t, exists(t, f, configMap(f.ns, "a", nil, nil)), "the object of the lost inventory leaked")
}
