package inventory_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/inventory"
)

// item is a typical ConfigMap item as an engine records it.
func item(i int) inventory.Item {
	return inventory.Item{
		Version: "v1", Kind: "ConfigMap", Namespace: "production", Name: fmt.Sprintf("shop-config-%05d", i),
		Digest:          digest(i),
		ResourceVersion: fmt.Sprint(1_000_000 + i*7 + i%13),
	}
}

// digest shortens a SHA-256 as an engine would: 72 bits, base64url.
func digest(i int) string {
	sum := sha256.Sum256([]byte(fmt.Sprint(i)))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func inventoryOf(n int) inventory.Inventory {
	var inv inventory.Inventory
	for i := range n {
		inv.Items = append(inv.Items, item(i))
	}
	return inv
}

// A ConfigMap item, with a 27-character namespace and name, stays within
// 120 bytes of JSON.
func TestPlainFormStaysSmall(t *testing.T) {
	inv := inventoryOf(100)
	b, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	if perObject := len(b) / 100; perObject > 120 {
		t.Fatalf("plain form takes %d B per object, want at most 120: %s", perObject, b[:200])
	}
	var back inventory.Inventory
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inv, back); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
}

func TestLargeInventoryIsPackedAndFitsOneStatus(t *testing.T) {
	for _, n := range []int{5_000, 20_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			inv := inventoryOf(n)
			b, err := json.Marshal(inv)
			if err != nil {
				t.Fatal(err)
			}
			// The API server refuses requests above 1.5 MiB (etcd's limit);
			// the rest of the custom resource needs room too.
			if len(b) > 1<<20 {
				t.Fatalf("%d objects take %d B, want at most 1 MiB", n, len(b))
			}
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(b, &probe); err != nil {
				t.Fatal(err)
			}
			if _, packed := probe["z"]; !packed {
				t.Fatalf("%d objects were not packed", n)
			}
			t.Logf("%d objects: %d B, %.1f B per object", n, len(b), float64(len(b))/float64(n))
			var back inventory.Inventory
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(inv, back); diff != "" {
				t.Fatalf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultsAreOmitted(t *testing.T) {
	var it inventory.Item
	it.Version, it.Kind, it.Name = "v1", "Secret", "s"
	it.SetPhase(inventory.PhaseReady)
	it.SetStatus(inventory.StatusCurrent)
	b, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"v":"v1","k":"Secret","n":"s"}`, string(b)); diff != "" {
		t.Fatalf("JSON (-want +got):\n%s", diff)
	}
	if it.EffectivePhase() != inventory.PhaseReady || it.EffectiveStatus() != inventory.StatusCurrent {
		t.Fatalf("defaults not restored: %q %q", it.EffectivePhase(), it.EffectiveStatus())
	}
	it.SetPhase(inventory.PhaseDeleting)
	if it.EffectivePhase() != inventory.PhaseDeleting {
		t.Fatalf("phase = %q", it.EffectivePhase())
	}
}

func TestIndex(t *testing.T) {
	inv := inventoryOf(3)
	idx := inventory.NewIndex(&inv)
	k1 := inv.Items[1].Key()
	if got := idx.Find(&inv, k1); got == nil || got.Name != inv.Items[1].Name {
		t.Fatalf("Find(%v) = %v", k1, got)
	}
	extra := item(7)
	if i := idx.Add(&inv, extra); i != 3 {
		t.Fatalf("Add returned %d, want 3", i)
	}
	if i := idx.Add(&inv, extra); i != 3 || inv.Len() != 4 {
		t.Fatalf("second Add returned %d with %d items, want 3 and 4", i, inv.Len())
	}
	idx.Remove(&inv, map[inventory.Key]bool{k1: true})
	if idx.Find(&inv, k1) != nil || inv.Len() != 3 {
		t.Fatalf("removed item still found, %d items", inv.Len())
	}
	if got := idx.Find(&inv, extra.Key()); got == nil || got.Name != extra.Name {
		t.Fatalf("index not rebuilt after Remove: %v", got)
	}
}

func TestKeyString(t *testing.T) {
	tests := []struct {
		key  inventory.Key
		want string
	}{
		{inventory.Key{Kind: "ConfigMap", Namespace: "ns", Name: "a"}, "ConfigMap ns/a"},
		{inventory.Key{Group: "apps", Kind: "StatefulSet", Namespace: "ns", Name: "a"}, "StatefulSet.apps ns/a"},
		{inventory.Key{Kind: "Namespace", Name: "ns"}, "Namespace ns"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.key.String()); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
}
