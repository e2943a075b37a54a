package servertest

import (
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// With the owner index (the README's setup), a pass that starts from a
// lost inventory finds the owner's objects through the index and deletes
// those that left the set; another owner's objects are left alone.
func TestOwnerIndexFindsWhatALostInventoryHeld(t *testing.T) {
	a := newManaged(t, "owner-a", apply.Options{})
	ctx := testkit.Context(t)
	mine := []client.Object{configMap(a.ns, "a-1", nil, nil), configMap(a.ns, "a-2", nil, nil)}
	require.NoError(t, a.applyAll(ctx, mine))
	a.settle(t, ctx, mine)

	b := *a
	b.owner, b.inv = apply.Owner{ID: "owner-b", DefaultNamespace: a.ns}, inventory.Inventory{}
	theirs := []client.Object{configMap(a.ns, "b-1", nil, nil)}
	require.NoError(t, b.applyAll(ctx, theirs))
	b.settle(t, ctx, theirs)

	a.inv = inventory.Inventory{} // the status write was lost
	require.NoError(t, a.applyAll(ctx, mine[:1]))
	require.True(t, existsIn(t, a.raw, mine[0]), "%s, still wanted, was deleted", mine[0].GetName())
	require.False(t, existsIn(t, a.raw, mine[1]), "%s of the lost inventory leaked", mine[1].GetName())
	require.True(t, existsIn(t, a.raw, theirs[0]), "another owner's object was deleted")
	require.Len(t, a.inv.Items, 1)
}

// An engine told that a kind is indexed reads the index: over a cache
// without it, the search fails, naming the index, instead of testing every
// object's label.
func TestOwnerIndexIsWhatTheSearchReads(t *testing.T) {
	cp := env.Require(t)
	m := &managed{ns: testkit.Namespace(t, cp.Client), counter: apicount.New()}
	kinds := []schema.GroupVersionKind{configMapKind}
	startManaged(t, m, cp.Config, "owner-a", apply.Options{}, kinds, false)
	e, err := apply.New(name, m.cached, apply.Options{Kinds: kinds, IndexedKinds: kinds})
	require.NoError(t, err)
	_, err = e.Apply(testkit.Context(t), &m.inv, []client.Object{configMap(m.ns, "a", nil, nil)}, m.pass())
	require.ErrorContains(t, err, "metadata.labels["+key(apply.AnnotationOwnerID)+"]")
}
