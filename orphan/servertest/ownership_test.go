package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

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
	res, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending(), "only the real group is claimed")
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (orphan.Result, bool, error) {
		res, err := cleaner.Clean(testkit.Context(t), in)
		return res, err == nil && len(res.Pending()) == 0, err
	}, 60*time.Second)
	require.NoError(t, err)
	require.Equal(t, []string{"pdb"}, f.present(retired), "only the product's PDB is left")

	for _, obj := range []client.Object{discovery, productPDB, foreign} {
		require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj), "%T %s must survive", obj, obj.GetName())
		require.Nil(t, obj.GetDeletionTimestamp())
	}
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
	res, err := cleaner.Clean(testkit.Context(t), orphan.Input{Owner: f.cluster, DeclaredRoles: []string{"server"}})
	require.NoError(t, err)
	require.Equal(t, orphan.DefaultDrainPollInterval, res.RequeueAfter, "a deletion in flight asks to run again")
	require.Len(t, res.RolePDBs, 1)
	require.Equal(t, orphan.Action{
		Type:      orphan.ActionDeleted,
		RoleGroup: v1alpha1.RoleGroupRef{Role: "gone"},
		Object:    corev1.ObjectReference{APIVersion: "policy/v1", Kind: "PodDisruptionBudget", Namespace: f.ns, Name: gone.Name, UID: gone.UID},
	}, res.RolePDBs[0])

	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := f.c.Get(ctx, client.ObjectKeyFromObject(gone), &policyv1.PodDisruptionBudget{})
		return "present", apierrors.IsNotFound(err), client.IgnoreNotFound(err)
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
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
	var deleted []string
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		res, err := cleaner.Clean(testkit.Context(t), in)
		if err != nil {
			return "", false, err
		}
		for _, a := range res.Actions() {
			if a.Type == orphan.ActionDeleted {
				deleted = append(deleted, a.Object.Kind+" "+a.Object.Name)
			}
		}
		return strings.Join(f.present(retired), " "), len(res.Reclaimed()) == 1, nil
	}, 60*time.Second)
	require.NoError(t, err)
	name := f.scope(retired).ResourceName()
	require.Equal(t, []string{
		"PodDisruptionBudget " + name,
		"StatefulSet " + name,
		"Secret listener-old",
		"ConfigMap " + name,
		"Service " + name,
		"Service " + builders.HeadlessServiceName(name),
		"Service " + builders.MetricsServiceName(name),
	}, deleted, "extras go after the StatefulSet and before the ConfigMap")
	require.True(t, apierrors.IsNotFound(f.c.Get(t.Context(), client.ObjectKeyFromObject(extra), &corev1.Secret{})), "the extra object is deleted")
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(unowned), &corev1.Secret{}), "an unowned look-alike survives")
}
