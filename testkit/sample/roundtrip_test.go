package sample_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// affinity and podOverrides are schema-free: the API server neither
// validates nor prunes them, so a misspelt field reaches the operator, whose
// strict decoding can then name it. A pruned field would vanish silently.
func TestAPIServerKeepsUnknownFieldsInSchemaFreeMembers(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	const affinity = `{"nodeAffinty":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}`
	const podOverrides = `{"spec":{"nodeSelectr":{"disk":"ssd"},"containers":[{"name":"main","madeUp":true}]}}`
	group := commonsv1alpha1.RoleGroupSpec{
		Config:        &commonsv1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(affinity)}},
		OverridesSpec: commonsv1alpha1.OverridesSpec{PodOverrides: &runtime.RawExtension{Raw: []byte(podOverrides)}},
	}
	role := commonsv1alpha1.RoleSpec{
		Config:        &commonsv1alpha1.RoleGroupConfigSpec{Affinity: &runtime.RawExtension{Raw: []byte(affinity)}},
		OverridesSpec: commonsv1alpha1.OverridesSpec{PodOverrides: &runtime.RawExtension{Raw: []byte(podOverrides)}},
		RoleGroups:    map[string]commonsv1alpha1.RoleGroupSpec{"default": group},
	}
	created := newCluster(ns, commonsv1alpha1.ClusterSpec{Roles: map[string]commonsv1alpha1.RoleSpec{"server": role}})
	require.NoError(t, cp.Client.Create(t.Context(), created))

	got := &samplev1alpha1.SampleCluster{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(created), got))
	gotRole := got.Spec.Roles["server"]
	gotGroup := gotRole.RoleGroups["default"]

	tests := []struct {
		name string
		raw  *runtime.RawExtension
		want string
	}{
		{name: "role affinity", raw: configAffinity(gotRole.Config), want: affinity},
		{name: "role group affinity", raw: configAffinity(gotGroup.Config), want: affinity},
		{name: "role podOverrides", raw: gotRole.PodOverrides, want: podOverrides},
		{name: "role group podOverrides", raw: gotGroup.PodOverrides, want: podOverrides},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NotNil(t, tc.raw, "the member came back absent")
			if diff := cmp.Diff(decodeJSON(t, tc.want), decodeJSON(t, string(tc.raw.Raw))); diff != "" {
				t.Errorf("stored value differs from what was written (-want +got):\n%s", diff)
			}
		})
	}
}

// Typed fields the schema does not know are pruned: the contrast that shows
// the schema-free members above are kept on purpose.
func TestAPIServerPrunesUnknownFieldsOutsideSchemaFreeMembers(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": samplev1alpha1.GroupVersion.String(),
		"kind":       "SampleCluster",
		"metadata":   map[string]any{"namespace": ns, "generateName": "sample-"},
		"spec": map[string]any{"roles": map[string]any{"server": map[string]any{
			"config": map[string]any{"gracefulShutdownTimout": "30s"},
		}}},
	}}
	require.NoError(t, cp.Client.Create(t.Context(), obj))

	_, found, err := unstructured.NestedFieldNoCopy(obj.Object, "spec", "roles", "server", "config", "gracefulShutdownTimout")
	require.NoError(t, err)
	if found {
		t.Errorf("a misspelt typed field survived; the schema no longer prunes config")
	}
}

// Defaults declared by the markers arrive in what the API server stores.
func TestAPIServerAppliesDefaults(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": samplev1alpha1.GroupVersion.String(),
		"kind":       "SampleCluster",
		"metadata":   map[string]any{"namespace": ns, "generateName": "sample-"},
		"spec": map[string]any{
			"clusterOperation": map[string]any{},
			"roles": map[string]any{"server": map[string]any{
				"roleGroups": map[string]any{
					"default": map[string]any{},
					"big":     map[string]any{"replicas": int64(3)},
				},
			}},
		},
	}}
	require.NoError(t, cp.Client.Create(t.Context(), obj))

	tests := []struct {
		name string
		path []string
		want any
	}{
		{name: "role group replicas default to 1", path: []string{"spec", "roles", "server", "roleGroups", "default", "replicas"}, want: int64(1)},
		{name: "stated replicas are kept", path: []string{"spec", "roles", "server", "roleGroups", "big", "replicas"}, want: int64(3)},
		{name: "reconciliationPaused defaults to false", path: []string{"spec", "clusterOperation", "reconciliationPaused"}, want: false},
		{name: "stopped defaults to false", path: []string{"spec", "clusterOperation", "stopped"}, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, found, err := unstructured.NestedFieldNoCopy(obj.Object, tc.path...)
			require.NoError(t, err)
			require.True(t, found, "the API server stored no value at %v", tc.path)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
		})
	}

	// The typed view sees the same default.
	typed := &samplev1alpha1.SampleCluster{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(obj), typed))
	if diff := cmp.Diff(ptr.To[int32](1), typed.Spec.Roles["server"].RoleGroups["default"].Replicas); diff != "" {
		t.Errorf("typed replicas (-want +got):\n%s", diff)
	}
}

// The status subresource carries the embedded ClusterStatus, including the
// role-group ledger with each group's inventory (packed or not), and a spec
// update cannot write it.
func TestStatusSubresourceStoresTheRoleGroupLedger(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)

	c := newCluster(ns, commonsv1alpha1.ClusterSpec{Roles: rolesNamed(1)})
	require.NoError(t, cp.Client.Create(t.Context(), c))

	ledger := []commonsv1alpha1.RoleGroupStatus{
		{RoleGroupRef: commonsv1alpha1.RoleGroupRef{Role: "role-0", Group: "default"}, Objects: inventory.Inventory{Items: []inventory.Item{
			{Version: "v1", Kind: "ConfigMap", Namespace: ns, Name: "c-role-0-default", Digest: "abc"},
			{Group: "apps", Version: "v1", Kind: "StatefulSet", Namespace: ns, Name: "c-role-0-default", Generation: 3},
		}}},
		{RoleGroupRef: commonsv1alpha1.RoleGroupRef{Role: "role-0", Group: "old"}},
	}
	c.Status.RoleGroups = ledger
	c.Status.Roles = []commonsv1alpha1.RoleStatus{{Role: "role-0", Objects: inventory.Inventory{Items: []inventory.Item{
		{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Namespace: ns, Name: "c-role-0"},
	}}}}
	c.Status.Objects = bigInventory(ns, 3000)
	c.Status.ObservedGeneration = c.Generation
	require.NoError(t, cp.Client.Status().Update(t.Context(), c))

	c.Status.RoleGroups = nil
	c.Spec.Note = "changed"
	require.NoError(t, cp.Client.Update(t.Context(), c))

	got := &samplev1alpha1.SampleCluster{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(c), got))
	if diff := cmp.Diff(ledger, got.Status.RoleGroups); diff != "" {
		t.Errorf("ledger after a spec update (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(c.Status.Objects.Items, got.Status.Objects.Items); diff != "" {
		t.Errorf("packed cluster inventory after the round trip (-want +got):\n%s", diff)
	}
	if got.Status.Roles[0].Objects.Items[0].Kind != "PodDisruptionBudget" {
		t.Errorf("role inventory lost: %+v", got.Status.Roles)
	}
	if got.Status.ObservedGeneration != 1 {
		t.Errorf("observedGeneration = %d, want 1", got.Status.ObservedGeneration)
	}
}

// bigInventory returns n ConfigMap items, enough to be stored packed.
func bigInventory(ns string, n int) inventory.Inventory {
	inv := inventory.Inventory{}
	for i := range n {
		inv.Items = append(inv.Items, inventory.Item{Version: "v1", Kind: "ConfigMap", Namespace: ns, Name: fmt.Sprintf("settings-%05d", i), Digest: "0123456789a"})
	}
	return inv
}

func configAffinity(c *commonsv1alpha1.RoleGroupConfigSpec) *runtime.RawExtension {
	if c == nil {
		return nil
	}
	return c.Affinity
}
