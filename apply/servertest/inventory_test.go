package servertest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// realisticInventory returns n ConfigMap items as the engine records them:
// digests of distinct contents and distinct resourceVersions.
func realisticInventory(t *testing.T, ns string, n int) inventory.Inventory {
	t.Helper()
	inv := inventory.Inventory{Items: make([]inventory.Item, n)}
	for i := range n {
		name := fmt.Sprintf("settings-%05d", i)
		digest, err := apply.Digest(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": ns}, "data": map[string]any{"k": fmt.Sprint(i)}}, "")
		require.NoError(t, err)
		inv.Items[i] = inventory.Item{Version: "v1", Kind: "ConfigMap", Namespace: ns, Name: name,
			Digest: digest, ResourceVersion: fmt.Sprint(1_000_000 + 3*i)}
	}
	return inv
}

// An inventory of 20,000 objects is stored in one custom resource's status
// through the API server (and etcd's request limit) and read back whole.
func TestTwentyThousandObjectsFitOneStatus(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	c := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "big"}}
	require.NoError(t, cp.Client.Create(t.Context(), c))

	c.Status.Objects = realisticInventory(t, ns, 20_000)
	b, err := json.Marshal(c.Status.Objects)
	require.NoError(t, err)
	t.Logf("20,000 objects: %d bytes in status, %.1f per object", len(b), float64(len(b))/20_000)
	require.NoError(t, cp.Client.Status().Update(t.Context(), c))

	got := &samplev1alpha1.SampleCluster{}
	require.NoError(t, cp.Client.Get(t.Context(), client.ObjectKeyFromObject(c), got))
	if diff := cmp.Diff(c.Status.Objects.Items, got.Status.Objects.Items); diff != "" {
		t.Errorf("inventory after the round trip (-want +got):\n%s", diff)
	}
}
