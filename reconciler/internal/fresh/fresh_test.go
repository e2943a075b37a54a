package fresh_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/opkit-dev/opkit/reconciler/internal/fresh"
)

func key(name string) types.NamespacedName {
	return types.NamespacedName{Namespace: "shop", Name: name}
}

func TestFreshnessDetectsStaleCopies(t *testing.T) {
	var f fresh.Versions
	k := key("front")
	f.Wrote(k, "uid-1", "10")
	f.Wrote(k, "uid-1", "11")
	if !f.Stale(k, "uid-1", "10") || !f.Stale(k, "uid-1", "11") {
		t.Fatal("a replaced version is not stale")
	}
	if !f.Awaited(k, "uid-1", "12") || f.Awaited(k, "uid-1", "11") {
		t.Error("the update bringing version 12 is not awaited, or the stale one is")
	}
	if f.Stale(k, "uid-2", "10") {
		t.Error("a new object of the same name is stale")
	}
	if f.Stale(k, "uid-1", "10") {
		t.Error("the record survived a newer copy")
	}
	f.Wrote(k, "uid-1", "20")
	f.Forget(k)
	if f.Stale(k, "uid-1", "20") {
		t.Error("the record survived forget")
	}
}
