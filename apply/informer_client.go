package apply

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// InformerClient returns c with its reads of kinds sent to the one
// informer a manager built with ManagerOptions keeps for each kind, the
// type InformerObject names. controller-runtime keeps one informer per Go
// type, so a read of a managed kind in another type would start a second
// informer holding every managed object of the kind again:
//
//   - a metadata read or list of a kind cached typed (the engine's search
//     for objects missing from an inventory) is answered from the typed
//     informer;
//   - a typed read or list of a kind cached as metadata (a cleaner's
//     ConfigMaps) is answered from the metadata informer, and returns the
//     object's metadata alone.
//
// Callers of such reads must need the metadata only; the engine's do. Writes,
// and reads of other kinds, go to c unchanged. New wraps its client with
// it whenever Options.Kinds is set; wrap the client of anything else that
// reads the engine's kinds from the same cache (an orphan cleaner, say).
func InformerClient(c client.Client, kinds []schema.GroupVersionKind) client.Client {
	if ic, ok := c.(informerClient); ok {
		c = ic.Client
	}
	return newInformerClient(c, kinds)
}

// informerClient is what InformerClient returns.
type informerClient struct {
	client.Client
	// typed and metadata are the managed kinds cached as typed objects and
	// as metadata.
	typed, metadata map[schema.GroupVersionKind]bool
}

func newInformerClient(c client.Client, kinds []schema.GroupVersionKind) informerClient {
	ic := informerClient{Client: c, typed: map[schema.GroupVersionKind]bool{}, metadata: map[schema.GroupVersionKind]bool{}}
	for _, gvk := range kinds {
		switch InformerObject(gvk, c.Scheme()).(type) {
		case *metav1.PartialObjectMetadata:
			ic.metadata[gvk] = true
		case interface{ GetObjectMeta() metav1.Object }:
			ic.typed[gvk] = true
		}
	}
	return ic
}

// Get reads a typed object of a metadata kind as its metadata, and the
// metadata of a typed kind from its typed informer.
func (c informerClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return c.Client.Get(ctx, key, obj, opts...)
	}
	m, isMeta := obj.(*metav1.PartialObjectMetadata)
	switch {
	case isMeta && c.typed[gvk]:
		typed, err := c.Scheme().New(gvk)
		if err != nil {
			return err
		}
		t, ok := typed.(client.Object)
		if !ok {
			return fmt.Errorf("%s: %T is not an object", gvk, typed)
		}
		if err := c.Client.Get(ctx, key, t, opts...); err != nil {
			return err
		}
		om, err := objectMeta(t)
		if err != nil {
			return err
		}
		*m = metav1.PartialObjectMetadata{ObjectMeta: *om}
		m.SetGroupVersionKind(gvk)
		return nil
	case !isMeta && c.metadata[gvk]:
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(gvk)
		if err := c.Client.Get(ctx, key, m, opts...); err != nil {
			return err
		}
		return setObjectMeta(obj, gvk, m.ObjectMeta)
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

// List lists a metadata kind's typed list as metadata, and a typed kind's
// metadata list from its typed informer.
func (c informerClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	listGVK, err := apiutil.GVKForObject(list, c.Scheme())
	if err != nil {
		return c.Client.List(ctx, list, opts...)
	}
	gvk := listGVK.GroupVersion().WithKind(strings.TrimSuffix(listGVK.Kind, "List"))
	metaList, isMeta := list.(*metav1.PartialObjectMetadataList)
	switch {
	case isMeta && c.typed[gvk]:
		return c.listTypedAsMetadata(ctx, gvk, metaList, opts)
	case !isMeta && c.metadata[gvk]:
		return c.listMetadataAsTyped(ctx, gvk, list, opts)
	}
	return c.Client.List(ctx, list, opts...)
}

func (c informerClient) listTypedAsMetadata(ctx context.Context, gvk schema.GroupVersionKind, out *metav1.PartialObjectMetadataList, opts []client.ListOption) error {
	obj, err := c.Scheme().New(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err != nil {
		return err
	}
	typed, ok := obj.(client.ObjectList)
	if !ok {
		return fmt.Errorf("%s: %T is not a list", gvk, obj)
	}
	if err := c.Client.List(ctx, typed, opts...); err != nil {
		return err
	}
	items, err := meta.ExtractList(typed)
	if err != nil {
		return err
	}
	out.ResourceVersion = typed.GetResourceVersion()
	out.Items = make([]metav1.PartialObjectMetadata, 0, len(items))
	for _, it := range items {
		om, err := objectMeta(it)
		if err != nil {
			return err
		}
		m := metav1.PartialObjectMetadata{ObjectMeta: *om}
		m.SetGroupVersionKind(gvk)
		out.Items = append(out.Items, m)
	}
	return nil
}

func (c informerClient) listMetadataAsTyped(ctx context.Context, gvk schema.GroupVersionKind, out client.ObjectList, opts []client.ListOption) error {
	m := &metav1.PartialObjectMetadataList{}
	m.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.Client.List(ctx, m, opts...); err != nil {
		return err
	}
	items := make([]runtime.Object, 0, len(m.Items))
	for i := range m.Items {
		obj, err := c.Scheme().New(gvk)
		if err != nil {
			return err
		}
		o, ok := obj.(client.Object)
		if !ok {
			return fmt.Errorf("%s: %T is not an object", gvk, obj)
		}
		if err := setObjectMeta(o, gvk, m.Items[i].ObjectMeta); err != nil {
			return err
		}
		items = append(items, o)
	}
	out.SetResourceVersion(m.ResourceVersion)
	return meta.SetList(out, items)
}

// objectMeta returns the metadata a typed object embeds.
func objectMeta(obj runtime.Object) (*metav1.ObjectMeta, error) {
	if acc, ok := obj.(interface{ GetObjectMeta() metav1.Object }); ok {
		if om, ok := acc.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return om, nil
		}
	}
	return nil, fmt.Errorf("%T has no object metadata", obj)
}

// setObjectMeta makes obj, a pointer to a typed object, an empty object of
// gvk with the metadata om.
func setObjectMeta(obj client.Object, gvk schema.GroupVersionKind, om metav1.ObjectMeta) error {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("%s: %T is not a pointer to an object", gvk, obj)
	}
	v.Elem().SetZero()
	dst, err := objectMeta(obj)
	if err != nil {
		return err
	}
	*dst = om
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return nil
}
