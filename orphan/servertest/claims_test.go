package servertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

// pods returns the names of the group's pods.
func (f *fixture) pods(ref v1alpha1.RoleGroupRef) []string {
	f.t.Helper()
	var list corev1.PodList
	require.NoError(f.t, f.c.List(f.t.Context(), &list, client.InNamespace(f.ns), client.MatchingLabels(f.scope(ref).SelectorLabels())))
	var out []string
	for _, p := range list.Items {
		out = append(out, p.Name)
	}
	return out
}

// waitClaimsGone waits until no claim of the namespace is left outside
// deletion.
func (f *fixture) waitClaimsGone() {
	f.t.Helper()
	_, err := testkit.WaitFor(f.t.Context(), func(context.Context) ([]string, bool, error) {
		left := f.claims()
		return left, len(left) == 0, nil
	}, 30*time.Second)
	require.NoError(f.t, err, "opted-in claims are deleted")
}

func TestClaimsAreDeletedOnlyWhenOptedInAndAfterTheDrain(t *testing.T) {
	for _, optIn := range []bool{false, true} {
		t.Run(fmt.Sprintf("opt-in=%v", optIn), func(t *testing.T) {
			var annotations map[string]string
			if optIn {
				annotations = map[string]string{v1alpha1.AnnotationDeletePVCs: "true"}
			}
			f := newFixture(t, annotations)
			f.applyGroup(retired, groupOptions{replicas: 2, storageClass: "local-" + f.ns})
			f.waitReady(retired, 2)
			claims := f.claims()
			require.Len(t, claims, 2)

			cleaner, _ := newCleaner(t, f, orphan.Options{})
			in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
			sawStage := false
			_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
				res, err := cleaner.Clean(testkit.Context(t), in)
				if err != nil {
					return "", false, err
				}
				if left := f.claims(); len(left) < len(claims) {
					require.Empty(t, f.pods(retired), "claims are deleted only once the pods are gone")
				}
				if g := res.Groups[0]; g.Stage == orphan.StageDeletingClaims {
					sawStage = true
					require.Len(t, g.Actions, 2, "both claims are deleted in one step")
					for _, a := range g.Actions {
						require.Equal(t, "PersistentVolumeClaim", a.Object.Kind)
						require.Contains(t, claims, a.Object.Name)
					}
				}
				return f.snapshot(retired), len(res.Reclaimed()) == 1, nil
			}, 90*time.Second)
			require.NoError(t, err)
			require.Equal(t, optIn, sawStage, "the claims stage is reported only with the opt-in")

			if optIn {
				f.waitClaimsGone()
			} else {
				require.Equal(t, claims, f.claims(), "claims survive without the opt-in")
			}
		})
	}
}

// A StatefulSet already gone when the teardown reaches the claims (deleted
// by hand, or by a process that died before the claims went) must not
// strand them.
func TestClaimsAreReclaimedWhenTheStatefulSetIsGone(t *testing.T) {
	f := newFixture(t, map[string]string{v1alpha1.AnnotationDeletePVCs: "true"})
	f.applyGroup(retired, groupOptions{replicas: 2, storageClass: "local-" + f.ns})
	f.applyGroup(kept, groupOptions{replicas: 1, storageClass: "local-" + f.ns})
	f.waitReady(retired, 2)
	f.waitReady(kept, 1)
	keptClaim := "data-" + f.scope(kept).ResourceName() + "-0"
	require.Len(t, f.claims(), 3)

	sts := f.statefulSet(retired)
	require.NoError(t, f.c.Delete(t.Context(), sts, client.PropagationPolicy("Background")))
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := f.c.Get(ctx, client.ObjectKeyFromObject(sts), &appsv1.StatefulSet{})
		return fmt.Sprint(err), apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	}, 30*time.Second)
	require.NoError(t, err)

	cleaner, _ := newCleaner(t, f, orphan.Options{})
	in := orphan.Input{Owner: f.cluster, Declared: []v1alpha1.RoleGroupRef{kept}, Ledger: ledgerOf(kept, retired)}
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed)
	_, err = testkit.WaitFor(t.Context(), func(context.Context) ([]string, bool, error) {
		left := f.claims()
		return left, len(left) == 1, nil
	}, 30*time.Second)
	require.NoError(t, err, "the removed group's claims are deleted")
	require.Equal(t, []string{keptClaim}, f.claims(), "the declared group's claim is kept")
}
