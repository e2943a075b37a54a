package share

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/inventory"
)

func sameData(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// An inventory keeps its items, in a slice of their length, with the
// strings every item repeats held once.
func TestInventory(t *testing.T) {
	items := make([]inventory.Item, 2, 8)
	items[0] = inventory.Item{Group: strings.Clone("apps"), Version: strings.Clone("v1"), Kind: strings.Clone("Deployment"), Namespace: strings.Clone("ns"), Name: "a", Digest: "d1"}
	items[1] = inventory.Item{Group: strings.Clone("apps"), Version: strings.Clone("v1"), Kind: strings.Clone("Deployment"), Namespace: strings.Clone("ns"), Name: "b", ResourceVersion: "7"}
	inv := inventory.Inventory{Items: items}
	want := *inv.DeepCopy()

	Inventory(&inv)
	if diff := cmp.Diff(want, inv); diff != "" {
		t.Errorf("the inventory changed (-want +got):\n%s", diff)
	}
	if cap(inv.Items) != len(inv.Items) {
		t.Errorf("the items keep capacity %d for %d items", cap(inv.Items), len(inv.Items))
	}
	a, b := inv.Items[0], inv.Items[1]
	for _, f := range []struct{ name, a, b string }{
		{"group", a.Group, b.Group}, {"version", a.Version, b.Version},
		{"kind", a.Kind, b.Kind}, {"namespace", a.Namespace, b.Namespace},
	} {
		if !sameData(f.a, f.b) {
			t.Errorf("the items' %ss are held per item", f.name)
		}
	}
	if &items[0] == &inv.Items[0] {
		t.Error("the decoded slice is kept")
	}
}

// An empty inventory stays as it is.
func TestInventoryEmpty(t *testing.T) {
	var inv inventory.Inventory
	Inventory(&inv)
	if inv.Items != nil {
		t.Errorf("items = %v, want nil", inv.Items)
	}
}

// Conditions keep their content, with types, reasons and messages held
// once.
func TestConditions(t *testing.T) {
	conds := []metav1.Condition{
		{Type: strings.Clone("Ready"), Status: metav1.ConditionTrue, Reason: strings.Clone("Applied"), Message: strings.Clone("all objects ready")},
		{Type: strings.Clone("Ready"), Status: metav1.ConditionTrue, Reason: strings.Clone("Applied"), Message: strings.Clone("all objects ready")},
	}
	want := append([]metav1.Condition(nil), conds...)
	Conditions(conds)
	if diff := cmp.Diff(want, conds); diff != "" {
		t.Errorf("the conditions changed (-want +got):\n%s", diff)
	}
	if !sameData(conds[0].Type, conds[1].Type) || !sameData(conds[0].Reason, conds[1].Reason) || !sameData(conds[0].Message, conds[1].Message) {
		t.Error("the conditions' strings are held per condition")
	}
}

// After runs the transform it wraps, then f on its result; an error stops
// it before f.
func TestAfter(t *testing.T) {
	var seen []string
	wrapped := func(in any) (any, error) {
		if in == "bad" {
			return nil, errors.New("refused")
		}
		return in.(string) + "+next", nil
	}
	for _, tt := range []struct {
		name    string
		next    func(any) (any, error)
		in      any
		want    any
		wantErr bool
		seen    []string
	}{
		{name: "without next", in: "a", want: "a", seen: []string{"a"}},
		{name: "with next", next: wrapped, in: "a", want: "a+next", seen: []string{"a+next"}},
		{name: "next fails", next: wrapped, in: "bad", wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			out, err := After(tt.next, func(in any) { seen = append(seen, in.(string)) })(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want one: %v", err, tt.wantErr)
			}
			if !tt.wantErr && out != tt.want {
				t.Errorf("out = %v, want %v", out, tt.want)
			}
			if diff := cmp.Diff(tt.seen, seen); diff != "" {
				t.Errorf("f saw (-want +got):\n%s", diff)
			}
		})
	}
}
