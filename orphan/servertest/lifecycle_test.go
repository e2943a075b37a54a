package orphan_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
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
			in := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupRef{retired}}
			_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
				res, err := cleaner.Clean(ctx, in)
				if err != nil {
					return "", false, err
				}
				if left := f.claims(); len(left) < len(claims) {
					require.Empty(t, f.pods(retired), "claims are deleted only once the pods are gone")
				}
				return f.snapshot(retired), len(res.Reclaimed) == 1, nil
			}, 90*time.Second)
			require.NoError(t, err)

			if optIn {
				_, err = testkit.WaitFor(t.Context(), func(context.Context) ([]string, bool, error) {
					left := f.claims()
					return left, len(left) == 0, nil
				}, 30*time.Second)
				require.NoError(t, err, "opted-in claims are deleted")
			} else {
				require.Equal(t, claims, f.claims(), "claims survive without the opt-in")
			}
		})
	}
}

func TestStuckPodHitsTheDrainTimeout(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	f.waitReady(retired, 1)
	pod := &corev1.Pod{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: f.scope(retired).ResourceName() + "-0"}, pod))
	hold := []byte(`{"metadata":{"finalizers":["test.opkit.dev/hold"]}}`)
	require.NoError(t, f.c.Patch(t.Context(), pod, client.RawPatch(types.MergePatchType, hold)))
	t.Cleanup(func() {
		_ = f.c.Patch(context.Background(), pod, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`)))
	})

	clk := newFakeClock()
	cleaner, reg := newCleaner(t, f, orphan.Options{Clock: clk})
	in := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupRef{retired}}
	_, err := cleaner.Clean(t.Context(), in)
	require.NoError(t, err)
	require.Equal(t, int32(0), *f.statefulSet(retired).Spec.Replicas)

	// The pod is deleted but cannot go: the group waits, however often it runs.
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		if err := f.c.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return "", false, err
		}
		return "terminating", pod.DeletionTimestamp != nil, nil
	}, 30*time.Second)
	require.NoError(t, err)
	for range 5 {
		res, err := cleaner.Clean(t.Context(), in)
		require.NoError(t, err)
		require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending)
		require.LessOrEqual(t, res.RequeueAfter, orphan.DefaultDrainPollInterval)
	}
	require.Contains(t, f.present(retired), "statefulset", "no deletion while the drain may still finish")
	require.Equal(t, int32(1), f.statefulSet(retired).Status.Replicas)

	clk.Step(orphan.DefaultDrainTimeout)
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed, "the rest of the group is reclaimed after the timeout")
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(fmt.Sprintf(`
# HELP opkit_orphan_drain_timeouts_total StatefulSets of removed role groups deleted with pods still terminating after the drain timeout.
# TYPE opkit_orphan_drain_timeouts_total counter
opkit_orphan_drain_timeouts_total{cluster="demo",namespace=%q} 1
`, f.ns)), orphan.MetricDrainTimeouts))
}

func TestReAddedGroupKeepsItsDataAndLosesItsMarks(t *testing.T) {
	f := newFixture(t, map[string]string{v1alpha1.AnnotationDeletePVCs: "true"})
	f.applyGroup(retired, groupOptions{replicas: 1, storageClass: "local-" + f.ns})
	f.waitReady(retired, 1)
	clk := newFakeClock()
	cleaner, _ := newCleaner(t, f, orphan.Options{Clock: clk, GracePeriod: time.Minute})
	removed := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupRef{retired}}

	_, err := cleaner.Clean(t.Context(), removed) // grace mark
	require.NoError(t, err)
	clk.Step(2 * time.Minute)
	_, err = cleaner.Clean(t.Context(), removed) // scale to zero
	require.NoError(t, err)
	sts := f.statefulSet(retired)
	require.Equal(t, int32(0), *sts.Spec.Replicas)
	require.Contains(t, sts.Annotations, v1alpha1.AnnotationPendingDeletion)
	require.Contains(t, sts.Annotations, v1alpha1.AnnotationDrainStarted)

	readded := removed
	readded.Declared = []v1alpha1.RoleGroupRef{retired}
	res, err := cleaner.Clean(t.Context(), readded)
	require.NoError(t, err)
	require.Empty(t, res.Pending)
	sts = f.statefulSet(retired)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationPendingDeletion)
	require.NotContains(t, sts.Annotations, v1alpha1.AnnotationDrainStarted)
	require.Len(t, f.claims(), 1, "the data survives the aborted teardown")

	// A later teardown starts from scratch: a fresh grace period.
	clk.Step(time.Hour)
	res, err = cleaner.Clean(t.Context(), removed)
	require.NoError(t, err)
	require.Equal(t, time.Minute, res.RequeueAfter)
	require.Equal(t, clk.Now().UTC().Format(time.RFC3339), f.statefulSet(retired).Annotations[v1alpha1.AnnotationPendingDeletion])
}

func TestLookAlikesAreNeverTouched(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	name := f.scope(retired).ResourceName()
	labels := f.scope(retired).Labels()

	// A discovery ConfigMap: same owner and labels, another name.
	discovery := &corev1.ConfigMap{ObjectMeta: meta(f.ns, "demo-discovery", labels)}
	f.own(discovery)
	// A product's PDB under the group's name, without the slot label.
	var pdb policyv1.PodDisruptionBudget
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: name}, &pdb))
	require.NoError(t, f.c.Delete(t.Context(), &pdb))
	productPDB := &policyv1.PodDisruptionBudget{ObjectMeta: meta(f.ns, name, labels), Spec: pdb.Spec}
	f.own(productPDB)
	// A ConfigMap named and labelled as another group, owned by another cluster.
	other := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "other"}}
	require.NoError(t, f.c.Create(t.Context(), other))
	ghost := v1alpha1.RoleGroupRef{Role: "server", Group: "ghost"}
	foreign := &corev1.ConfigMap{ObjectMeta: meta(f.ns, f.scope(ghost).ResourceName(), f.scope(ghost).Labels())}
	foreign.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(other, samplev1alpha1.GroupVersion.WithKind("SampleCluster"))}
	require.NoError(t, f.c.Create(t.Context(), foreign))

	cleaner, _ := newCleaner(t, f, orphan.Options{})
	in := orphan.Input{Owner: f.cluster}
	res, err := cleaner.Clean(t.Context(), in)
	require.NoError(t, err)
	require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending, "only the real group is claimed")
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (orphan.Result, bool, error) {
		res, err := cleaner.Clean(ctx, in)
		return res, err == nil && len(res.Pending) == 0, err
	}, 60*time.Second)
	require.NoError(t, err)
	require.Equal(t, []string{"pdb"}, f.present(retired), "only the product's PDB is left")

	for _, obj := range []client.Object{discovery, productPDB, foreign} {
		require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj), "%T %s must survive", obj, obj.GetName())
		require.Nil(t, obj.GetDeletionTimestamp())
	}
}

func TestRateLimitAbortsThePassAndLosesNothing(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{
		{Verbs: []string{"update"}, Resources: []string{"statefulsets.apps"}, Fault: faults.TooManyRequests, Rate: 1},
	}})
	require.NoError(t, err)
	cp := env.Require(t)
	cleaner, err := orphan.NewCleaner(inj.Client(cp.Client), cp.Client, orphan.Options{Registerer: newRegistry()})
	require.NoError(t, err)
	in := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupRef{retired}}

	res, err := cleaner.Clean(t.Context(), in)
	require.True(t, orphan.IsRateLimitError(err), "got %v", err)
	require.Equal(t, orphan.Result{}, res)
	require.Equal(t, int32(1), *f.statefulSet(retired).Spec.Replicas)
	require.Equal(t, 1, inj.Total())

	inj.SetEnabled(false)
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed)
}

func TestRemovedRolePDBIsReclaimedByItsSlotLabel(t *testing.T) {
	f := newFixture(t, nil)
	rolePDB := func(role string, slot bool) *policyv1.PodDisruptionBudget {
		sc := builders.Scope{Namespace: f.ns, Cluster: f.cluster.Name, Role: role}
		labels := sc.Labels()
		if slot {
			labels[v1alpha1.LabelRolePodDisruptionBudget] = role
		}
		return &policyv1.PodDisruptionBudget{
			ObjectMeta: meta(f.ns, sc.ResourceName(), labels),
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: sc.SelectorLabels()}},
		}
	}
	gone, kept, product := rolePDB("gone", true), rolePDB("server", true), rolePDB("broker", false)
	for _, p := range []client.Object{gone, kept, product} {
		f.own(p)
	}
	unowned := rolePDB("stray", true)
	require.NoError(t, f.c.Create(t.Context(), unowned))

	cleaner, _ := newCleaner(t, f, orphan.Options{})
	res, err := cleaner.Clean(t.Context(), orphan.Input{Owner: f.cluster, DeclaredRoles: []string{"server"}})
	require.NoError(t, err)
	require.Equal(t, orphan.DefaultDrainPollInterval, res.RequeueAfter, "a deletion in flight asks to run again")

	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		err := f.c.Get(ctx, client.ObjectKeyFromObject(gone), &policyv1.PodDisruptionBudget{})
		return err != nil, client.IgnoreNotFound(err) == nil && err != nil, client.IgnoreNotFound(err)
	}, 30*time.Second)
	require.NoError(t, err, "the removed role's PDB is deleted")
	for _, p := range []client.Object{kept, product, unowned} {
		require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(p), p), "%s must survive", p.GetName())
		require.Nil(t, p.GetDeletionTimestamp())
	}
}

func TestRegisteredExtraKindsAreReclaimedAfterTheStatefulSet(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 0})
	labels := f.scope(retired).Labels()
	extra := &corev1.Secret{ObjectMeta: meta(f.ns, "listener-old", labels)}
	f.own(extra)
	unowned := &corev1.Secret{ObjectMeta: meta(f.ns, "stray-old", labels)}
	require.NoError(t, f.c.Create(t.Context(), unowned))

	cleaner, _ := newCleaner(t, f, orphan.Options{ExtraKinds: []schema.GroupVersionKind{corev1.SchemeGroupVersion.WithKind("Secret")}})
	in := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupRef{retired}}
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		res, err := cleaner.Clean(ctx, in)
		if err != nil {
			return "", false, err
		}
		present := f.present(retired)
		gone := client.IgnoreNotFound(f.c.Get(ctx, client.ObjectKeyFromObject(extra), &corev1.Secret{})) == nil &&
			f.c.Get(ctx, client.ObjectKeyFromObject(extra), &corev1.Secret{}) != nil
		if gone {
			require.NotContains(t, present, "statefulset", "extras go after the StatefulSet")
		} else {
			require.NotEqual(t, []string{"service", "headless", "metrics"}, present, "extras go before the ConfigMap")
		}
		return strings.Join(present, " "), len(res.Reclaimed) == 1, nil
	}, 60*time.Second)
	require.NoError(t, err)
	require.Error(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(extra), &corev1.Secret{}), "the extra object is deleted")
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(unowned), &corev1.Secret{}), "an unowned look-alike survives")
}
