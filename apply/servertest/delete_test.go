package servertest

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
)

func exists(t *testing.T, f *fixture, obj client.Object) bool {
	t.Helper()
	return existsIn(t, f.c, obj)
}

// existsIn reports whether obj exists, as c reads it.
func existsIn(t *testing.T, c client.Reader, obj client.Object) bool {
	t.Helper()
	err := c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj.DeepCopyObject().(client.Object))
	if apierrors.IsNotFound(err) {
		return false
	}
	require.NoError(t, err)
	return true
}

func TestDeleteWavesFollowDeleteOrder(t *testing.T) {
	recorder := events.NewFakeRecorder(100)
	f := newFixture(t, "owner-a", apply.Options{Recorder: recorder})
	// Apply order and delete order are independent. A finalizer held by
	// someone else keeps the first delete wave from finishing.
	early := configMap(f.ns, "early", nil, map[string]string{key(apply.AnnotationApplyOrder): "5", key(apply.AnnotationDeleteOrder): "-1"})
	early.Finalizers = []string{"example.com/hold"}
	late := configMap(f.ns, "late", nil, map[string]string{key(apply.AnnotationDeleteOrder): "3"})
	f.applyUntilReady(early, late)
	for len(recorder.Events) > 0 {
		<-recorder.Events
	}

	done, err := f.r.Delete(t.Context(), &f.inv, f.pass())
	require.NoError(t, err)
	require.False(t, done.Done)
	live := &corev1.ConfigMap{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(early), live))
	require.NotNil(t, live.DeletionTimestamp)
	require.True(t, exists(t, f, late), "a later delete wave started before the earlier one was gone")

	live.Finalizers = nil
	require.NoError(t, f.c.Update(t.Context(), live))
	f.deleteUntilDone()
	require.False(t, exists(t, f, late))
	require.Empty(t, f.inv.Items)
	var got []string
	for len(recorder.Events) > 0 {
		got = append(got, <-recorder.Events)
	}
	want := []string{
		"Normal Deleted deleted ConfigMap " + f.ns + "/early",
		"Normal Deleted deleted ConfigMap " + f.ns + "/late",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestObsoleteObjectsAreDeleted(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	keep := configMap(f.ns, "keep", nil, nil)
	drop := configMap(f.ns, "drop", nil, nil)
	orphan := configMap(f.ns, "orphan", nil, map[string]string{key(apply.AnnotationDeletePolicy): string(apply.DeletePolicyOrphanOnApply)})
	f.applyUntilReady(keep, drop, orphan)

	f.applyUntilReady(keep)
	require.False(t, exists(t, f, drop))
	require.True(t, exists(t, f, orphan), "orphan-on-apply object was deleted")
	require.Len(t, f.inv.Items, 1)
}

func TestDeleteOrphans(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	kept := configMap(f.ns, "kept", nil, map[string]string{key(apply.AnnotationDeletePolicy): string(apply.DeletePolicyOrphan)})
	onDelete := configMap(f.ns, "kept-on-delete", nil, map[string]string{key(apply.AnnotationDeletePolicy): string(apply.DeletePolicyOrphanOnDelete)})
	gone := configMap(f.ns, "gone", nil, nil)
	f.applyUntilReady(kept, onDelete, gone)
	f.deleteUntilDone()
	require.True(t, exists(t, f, kept))
	require.True(t, exists(t, f, onDelete))
	require.False(t, exists(t, f, gone))
}

func TestNamespaceIsDeletedOnlyWhenUnused(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	own := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: f.ns + "-own"}}
	// The ConfigMap's delete wave is later than the namespace's, yet the
	// namespace must wait for it.
	inside := configMap(own.Name, "inside", nil, map[string]string{key(apply.AnnotationDeleteOrder): "1"})
	f.applyUntilReady(own, inside)

	done, err := f.r.Delete(t.Context(), &f.inv, f.pass())
	require.NoError(t, err)
	require.False(t, done.Done)
	live := &corev1.Namespace{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(own), live))
	require.Nil(t, live.DeletionTimestamp, "namespace deleted while still in use")

	f.deleteUntilDone()
	require.False(t, exists(t, f, own))
}

func TestPurgeOrderCompletesObjects(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	seed := func(v string) *corev1.ConfigMap {
		return configMap(f.ns, "seed", map[string]string{"v": v}, map[string]string{key(apply.AnnotationPurgeOrder): "0"})
	}
	later := configMap(f.ns, "later", nil, map[string]string{key(apply.AnnotationApplyOrder): "1"})
	f.applyUntilReady(seed("1"), later)
	require.False(t, exists(t, f, seed("1")), "purged object still exists")
	it := f.find(schemaGK("", "ConfigMap"), f.ns, "seed")
	require.NotNil(t, it)
	require.Equal(t, inventory.PhaseCompleted, it.Phase)

	before := f.counter.Snapshot()
	f.applyUntilReady(seed("1"), later)
	require.Equal(t, 0, f.counter.Snapshot().Sub(before).Writes(), "a completed object was applied again")

	// A changed object runs again: created, awaited, purged.
	before = f.counter.Snapshot()
	f.applyUntilReady(seed("2"), later)
	delta := f.counter.Snapshot().Sub(before)
	require.Equal(t, 1, delta.Verb("create"), "%s", delta)
	require.Equal(t, 1, delta.Verb("delete"), "%s", delta)
	require.False(t, exists(t, f, seed("2")))
	require.Equal(t, inventory.PhaseCompleted, f.find(schemaGK("", "ConfigMap"), f.ns, "seed").Phase)
}

func TestDeleteUsesPreconditions(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	var objects []client.Object
	for i := range 3 {
		objects = append(objects, configMap(f.ns, fmt.Sprintf("cm-%d", i), nil, nil))
	}
	f.applyUntilReady(objects...)
	before := f.counter.Snapshot()
	f.deleteUntilDone()
	delta := f.counter.Snapshot().Sub(before)
	require.Equal(t, 3, delta.Verb("delete"), "%s", delta)
}
