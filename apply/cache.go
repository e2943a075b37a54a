package apply

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ManagerOptions returns the cache and client options a controller-runtime
// manager needs so that an Engine named name, given the manager's
// client, serves a no-op pass over objects of kinds from memory, with no
// request to the API server:
//
//   - the cache of each kind holds only objects carrying the engine's
//     owner label (any owner), so it does not mirror unrelated objects;
//   - managed fields are stripped from every cached object (they are half
//     of a typical object's size and a pass never needs them from the
//     cache), the strings cached objects repeat (namespaces, labels,
//     annotations, owner references, selectors) are held once, and so are
//     equal label maps (the objects of one owner mostly carry the same
//     labels): cached objects must not be modified in place, as with any
//     informer;
//   - unstructured reads are cached too (kinds the scheme does not know,
//     and kinds the engine reads whole).
//
// Metadata-only kinds (ConfigMaps, Secrets, RBAC objects, …) are read as
// metav1.PartialObjectMetadata and so cached by metadata-only informers;
// watch them with builder.OnlyMetadata to share those informers. A
// controller whose own code reads objects of these kinds without the label
// must use the manager's API reader for those reads.
//
//	cacheOpts, clientOpts := apply.ManagerOptions(name, kinds...)
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Cache: cacheOpts, Client: clientOpts})
//	r, err := apply.New(name, mgr.GetClient(), apply.Options{Reader: mgr.GetAPIReader(), Kinds: kinds})
func ManagerOptions(name string, kinds ...schema.GroupVersionKind) (cache.Options, client.Options) {
	owned, err := labels.NewRequirement(name+"/"+AnnotationOwnerID, selection.Exists, nil)
	sel := labels.Everything()
	if err == nil {
		sel = labels.NewSelector().Add(*owned)
	}
	byObject := make(map[client.Object]cache.ByObject, len(kinds))
	for _, gvk := range kinds {
		key := &metav1.PartialObjectMetadata{}
		key.SetGroupVersionKind(gvk)
		byObject[key] = cache.ByObject{Label: sel}
	}
	return cache.Options{
			ByObject:         byObject,
			DefaultTransform: shareStrings(cache.TransformStripManagedFields()),
		}, client.Options{
			Cache: &client.CacheOptions{Unstructured: true},
		}
}
