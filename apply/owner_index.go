package apply

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// IndexOwners adds to the cache behind indexer an index of the objects of
// kinds by the owner label of the engine named name, and returns the
// kinds it indexed: pass them as Options.IndexedKinds. With the index, the
// search for objects missing from an owner's inventory (an owner's first
// pass since the engine started, a lost status write) reads the owner's
// objects from the index; without it, it tests the label of every cached
// object of each kind, once per owner, which grows with the square of the
// number of owners.
//
// Call it before the cache starts (in a reconciler's SetupWithManager),
// with the manager's field indexer and scheme; each kind is indexed in the
// informer InformerObject names, the one ManagerOptions sets up. A kind the
// API server does not serve yet (a CRD installed later) is left out and
// searched by its label.
//
//	indexed, err := apply.IndexOwners(ctx, mgr.GetFieldIndexer(), mgr.GetScheme(), name, kinds...)
//	r, err := apply.New(name, mgr.GetClient(), apply.Options{Kinds: kinds, IndexedKinds: indexed})
func IndexOwners(ctx context.Context, indexer client.FieldIndexer, scheme *runtime.Scheme, name string, kinds ...schema.GroupVersionKind) ([]schema.GroupVersionKind, error) {
	key, _ := OwnerLabel(name, "")
	field := ownerIndexField(key)
	value := func(o client.Object) []string {
		if v, ok := o.GetLabels()[key]; ok {
			return []string{v}
		}
		return nil
	}
	var indexed []schema.GroupVersionKind
	for _, gvk := range kinds {
		err := indexer.IndexField(ctx, InformerObject(gvk, scheme), field, value)
		if isNoMatch(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("indexing %s by the label %s: %w", gvk.Kind, key, err)
		}
		indexed = append(indexed, gvk)
	}
	return indexed, nil
}

// ownerIndexField is the name of the index IndexOwners adds for the
// owner label key.
func ownerIndexField(key string) string { return "metadata.labels[" + key + "]" }
