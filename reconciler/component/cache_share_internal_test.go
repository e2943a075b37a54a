package component

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// shareComponent is a minimal component type.
type shareComponent struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status componentv1alpha1.Status
}

func (c *shareComponent) GetSpec() any                         { return &struct{}{} }
func (c *shareComponent) GetStatus() *componentv1alpha1.Status { return &c.Status }
func (c *shareComponent) DeepCopyObject() runtime.Object {
	out := &shareComponent{TypeMeta: c.TypeMeta, ObjectMeta: *c.ObjectMeta.DeepCopy()}
	c.Status.DeepCopyInto(&out.Status)
	return out
}

// The transform keeps a component's content, trims its inventory and
// shares what the items and conditions repeat, after the transform it
// wraps; other objects pass through.
func TestShareStatus(t *testing.T) {
	items := make([]inventory.Item, 2, 8)
	items[0] = inventory.Item{Version: strings.Clone("v1"), Kind: strings.Clone("ConfigMap"), Namespace: strings.Clone("ns"), Name: "a"}
	items[1] = inventory.Item{Version: strings.Clone("v1"), Kind: strings.Clone("ConfigMap"), Namespace: strings.Clone("ns"), Name: "b"}
	c := &shareComponent{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "demo", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}}}
	c.Status.Inventory.Items = items
	c.Status.Conditions = []metav1.Condition{{Type: "Ready", Reason: "Applied"}}
	want := c.DeepCopyObject().(*shareComponent)
	want.ManagedFields = nil

	ran := 0
	transform := shareStatus(func(in any) (any, error) {
		ran++
		if o, ok := in.(metav1.Object); ok {
			o.SetManagedFields(nil)
		}
		return in, nil
	})
	out, err := transform(c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("the component changed (-want +got):\n%s", diff)
	}
	inv := out.(*shareComponent).Status.Inventory.Items
	if cap(inv) != len(inv) {
		t.Errorf("the inventory keeps capacity %d for %d items", cap(inv), len(inv))
	}
	if unsafe.StringData(inv[0].Kind) != unsafe.StringData(inv[1].Kind) {
		t.Error("the items' kinds are held per item")
	}

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}
	if out, err := transform(cm); err != nil || out != cm {
		t.Errorf("a ConfigMap came back as %v, %v; want itself", out, err)
	}
	if ran != 2 {
		t.Errorf("the wrapped transform ran %d times, want 2", ran)
	}
}
