package servertest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

func TestReAddedGroupKeepsItsDataAndLosesItsMarks(t *testing.T) {
	f := newFixture(t, map[string]string{v1alpha1.AnnotationDeletePVCs: "true"})
	f.applyGroup(retired, groupOptions{replicas: 1, storageClass: "local-" + f.ns})
	f.waitReady(retired, 1)
	clk := newFakeClock()
	cleaner, _ := newCleaner(t, f, orphan.Options{Clock: clk, GracePeriod: time.Minute})
	removed := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}

	_, err := cleaner.Clean(testkit.Context(t), removed) // grace mark
	require.NoError(t, err)
	clk.Step(2 * time.Minute)
	_, err = cleaner.Clean(testkit.Context(t), removed) // scale to zero
	require.NoError(t, err)
	sts := f.statefulSet(retired)
	require.Equal(t, int32(0), *sts.Spec.Replicas)
	require.Contains(t, sts.Annotations, v1alpha1.AnnotationPendingDeletion)
	require.Contains(t, sts.Annotations, v1alpha1.AnnotationDrainStarted)

	readded := removed
	readded.Declared = []v1alpha1.RoleGroupRef{retired}
	res, err := cleaner.Clean(testkit.Context(t), readded)
	require.NoError(t, err)
	require.Empty(t, res.Groups)
	var unmarked []string
	for _, a := range res.Unmarked {
		require.Equal(t, orphan.ActionUnmarked, a.Type)
		require.Equal(t, retired, a.RoleGroup)
		unmarked = append(unmarked, a.Object.Kind)
	}
	require.Equal(t, []string{"StatefulSet", "ConfigMap"}, unmarked, "the re-added group's objects are reported unmarked")
	sts = f.statefulSet(retired)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationPendingDeletion)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationDrainStarted)
	require.Len(t, f.claims(), 1, "the data survives the aborted teardown")

	// A later teardown starts from scratch: a fresh grace period.
	clk.Step(time.Hour)
	res, err = cleaner.Clean(testkit.Context(t), removed)
	require.NoError(t, err)
	require.Equal(t, time.Minute, res.RequeueAfter)
	require.Equal(t, clk.Now().UTC().Format(time.RFC3339), f.statefulSet(retired).Annotations[v1alpha1.AnnotationPendingDeletion])
}

// Without an owner UID nothing is found live: a group re-added mid-teardown
// is known from the ledger alone, and its marks must go all the same.
func TestReAddedLedgerOnlyGroupLosesItsMarks(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	anon := f.cluster.DeepCopy()
	anon.UID = ""
	clk := newFakeClock()
	cleaner, _ := newCleaner(t, f, orphan.Options{Clock: clk, GracePeriod: time.Minute})
	removed := orphan.Input{Owner: anon, Ledger: ledgerOf(retired)}

	res, err := cleaner.Clean(testkit.Context(t), removed)
	require.NoError(t, err)
	require.Equal(t, orphan.StageGrace, res.Groups[0].Stage)
	clk.Step(2 * time.Minute)
	res, err = cleaner.Clean(testkit.Context(t), removed)
	require.NoError(t, err)
	require.Equal(t, orphan.StageScalingDown, res.Groups[0].Stage)
	require.Contains(t, f.statefulSet(retired).Annotations, v1alpha1.AnnotationDrainStarted)

	readded := removed
	readded.Declared = []v1alpha1.RoleGroupRef{retired}
	res, err = cleaner.Clean(testkit.Context(t), readded)
	require.NoError(t, err)
	require.Empty(t, res.Groups)
	require.Len(t, res.Unmarked, 2)
	sts := f.statefulSet(retired)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationPendingDeletion)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationDrainStarted)
	var cm corev1.ConfigMap
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: sts.Name}, &cm))
	require.NotContains(t, cm.Annotations, v1alpha1.AnnotationPendingDeletion)

	// Nothing is left to clear: the next pass reports nothing.
	res, err = cleaner.Clean(testkit.Context(t), readded)
	require.NoError(t, err)
	require.Empty(t, res.Unmarked)
}
