package apply

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// InformerObject returns an empty object of the type an Engine whose
// client has scheme reads gvk as in a pass: metadata only
// (*metav1.PartialObjectMetadata) for the kinds whose metadata decides
// drift (ConfigMaps, Secrets, ServiceAccounts, RBAC objects, …), the typed
// object where scheme knows the kind, unstructured otherwise. A controller
// that watches the kinds it applies with these types shares the engine's
// informers instead of running a second cache of the same objects.
func InformerObject(gvk schema.GroupVersionKind, scheme *runtime.Scheme) client.Object {
	if metadataKinds[gvk.GroupKind()] {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(gvk)
		return m
	}
	if scheme != nil && scheme.Recognizes(gvk) {
		if obj, err := scheme.New(gvk); err == nil {
			if o, ok := obj.(client.Object); ok {
				o.GetObjectKind().SetGroupVersionKind(gvk)
				return o
			}
		}
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}
