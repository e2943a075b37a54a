package reconciler

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// testCluster is a minimal cluster resource.
type testCluster struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   commonsv1alpha1.ClusterSpec
	Status commonsv1alpha1.ClusterStatus
}

func (c *testCluster) GetClusterSpec() *commonsv1alpha1.ClusterSpec     { return &c.Spec }
func (c *testCluster) GetClusterStatus() *commonsv1alpha1.ClusterStatus { return &c.Status }
func (c *testCluster) DeepCopyObject() runtime.Object                   { return c.DeepCopy() }
func (c *testCluster) DeepCopy() *testCluster {
	out := &testCluster{TypeMeta: c.TypeMeta, ObjectMeta: *c.ObjectMeta.DeepCopy()}
	c.Spec.DeepCopyInto(&out.Spec)
	c.Status.DeepCopyInto(&out.Status)
	return out
}

func sameData(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// The status transform changes no content, shares what inventories and
// conditions repeat, trims inventories and runs the transform it wraps
// first.
func TestShareStatus(t *testing.T) {
	items := make([]inventory.Item, 2, 8)
	items[0] = inventory.Item{Version: strings.Clone("v1"), Kind: strings.Clone("ConfigMap"), Namespace: "ns", Name: "a"}
	items[1] = inventory.Item{Version: strings.Clone("v1"), Kind: strings.Clone("ConfigMap"), Namespace: "ns", Name: "b"}
	cluster := &testCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}}}
	cluster.Status.Objects.Items = items
	cluster.Status.Conditions = []metav1.Condition{{Type: strings.Clone("Available"), Reason: strings.Clone("Ready")}}
	want := cluster.DeepCopy()
	want.ManagedFields = nil

	ran := false
	transform := shareStatus(func(in any) (any, error) {
		ran = true
		in.(*testCluster).ManagedFields = nil
		return in, nil
	})
	out, err := transform(cluster)
	if err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Error("the wrapped transform did not run")
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("the cluster changed (-want +got):\n%s", diff)
	}
	inv := out.(*testCluster).Status.Objects.Items
	if cap(inv) != len(inv) {
		t.Errorf("inventory keeps capacity %d for %d items", cap(inv), len(inv))
	}
	if !sameData(inv[0].Kind, inv[1].Kind) || !sameData(inv[0].Version, inv[1].Version) {
		t.Errorf("inventory kinds and versions are held per item")
	}
}
