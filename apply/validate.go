package apply

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/inventory"
)

var (
	gkNamespace  = schema.GroupKind{Kind: "Namespace"}
	gkSecret     = schema.GroupKind{Kind: "Secret"}
	gkCRD        = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
	gkAPIService = schema.GroupKind{Group: "apiregistration.k8s.io", Kind: "APIService"}
)

// desired is one validated object of the set.
type desired struct {
	// obj is the engine's own copy of the object: typed when the caller
	// passed a typed object, unstructured otherwise.
	obj client.Object
	// u is obj in unstructured form, built on first use (see content):
	// most passes never need it for an unchanged typed object.
	u            *unstructured.Unstructured
	uOnce        sync.Once
	uErr         error
	gvk          schema.GroupVersionKind
	ref          inventory.Ref
	key          inventory.Key
	settings     settings
	digest       string
	managedTypes []TypeInfo
	// managedInstance is set for instances of a type served by a CRD or
	// APIService of the same set.
	managedInstance bool
	// apiServiceInstance is set for instances of a kind an APIService of the
	// set serves: their scope is unknown until it is available.
	apiServiceInstance bool
}

// invalid returns an *InvalidObjectError for d.
func (r *Engine) invalid(ref inventory.Ref, pos int, annotation, format string, args ...any) *InvalidObjectError {
	return &InvalidObjectError{Object: ref, Position: pos, Annotation: annotation, Reason: fmt.Sprintf(format, args...), Author: r.opts.ObjectsAuthor}
}

func (d *desired) setRef() {
	d.ref = inventory.Ref{Group: d.gvk.Group, Version: d.gvk.Version, Kind: d.gvk.Kind, Namespace: d.obj.GetNamespace(), Name: d.obj.GetName()}
	d.key = d.ref.Key()
}

// privateCopy returns the engine's own copy of obj, with its type set and
// the metadata the server fills in cleared (it describes no intent, and a
// create carrying it fails).
func (r *Engine) privateCopy(obj client.Object) (client.Object, schema.GroupVersionKind, error) {
	if obj == nil || reflect.ValueOf(obj).IsNil() {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("object is nil")
	}
	var (
		own client.Object
		gvk schema.GroupVersionKind
	)
	if u, ok := obj.(*unstructured.Unstructured); ok {
		gvk = u.GroupVersionKind()
		if gvk.Kind == "" || gvk.Version == "" {
			return nil, gvk, fmt.Errorf("unstructured object %q has no apiVersion or kind", u.GetName())
		}
		c := u.DeepCopy()
		// A desired status states no intent (the server ignores it).
		unstructured.RemoveNestedField(c.Object, "status")
		own = c
	} else {
		var err error
		if gvk, err = apiutil.GVKForObject(obj, r.client.Scheme()); err != nil {
			return nil, gvk, err
		}
		copied, ok := obj.DeepCopyObject().(client.Object)
		if !ok {
			return nil, gvk, fmt.Errorf("%T does not copy to an object", obj)
		}
		own = copied
		own.GetObjectKind().SetGroupVersionKind(gvk)
		// A desired status states no intent (the server ignores it).
		if st := reflect.ValueOf(own).Elem().FieldByName("Status"); st.IsValid() && st.CanSet() {
			st.Set(reflect.Zero(st.Type()))
		}
	}
	own.SetResourceVersion("")
	own.SetUID("")
	own.SetGeneration(0)
	own.SetManagedFields(nil)
	own.SetSelfLink("")
	own.SetCreationTimestamp(metav1.Time{})
	own.SetDeletionTimestamp(nil)
	own.SetDeletionGracePeriodSeconds(nil)
	if labels := own.GetLabels(); labels != nil {
		// Stamped on every write; not part of the desired state.
		delete(labels, r.prefix+AnnotationOwnerID)
	}
	return own, gvk, nil
}

// content returns the object in unstructured form, without status, built
// once from the typed copy.
func (d *desired) content() (*unstructured.Unstructured, error) {
	d.uOnce.Do(func() {
		if d.u != nil {
			return
		}
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(d.obj)
		if err != nil {
			d.uErr = fmt.Errorf("converting %s: %w", d.ref, err)
			return
		}
		u := &unstructured.Unstructured{Object: m}
		u.SetGroupVersionKind(d.gvk)
		unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
		unstructured.RemoveNestedField(u.Object, "status")
		d.u = u
	})
	return d.u, d.uErr
}

// setNamespace sets the namespace of the object and of its unstructured
// form, if built.
func (d *desired) setNamespace(ns string) {
	d.obj.SetNamespace(ns)
	if d.u != nil {
		d.u.SetNamespace(ns)
	}
}

func (r *Engine) namespaced(gvk schema.GroupVersionKind, crdScopes map[schema.GroupKind]bool) (bool, error) {
	if scope, ok := crdScopes[gvk.GroupKind()]; ok {
		return scope, nil
	}
	m, err := r.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return false, fmt.Errorf("finding the scope of %s: %w", gvk, err)
	}
	return m.Scope.Name() == meta.RESTScopeNameNamespace, nil
}

// mergeStringData moves a Secret's stringData into data, as the API server
// would, so that the digest and the comparison see what is stored.
func mergeStringData(obj client.Object) error {
	if sec, ok := obj.(*corev1.Secret); ok {
		if len(sec.StringData) == 0 {
			sec.StringData = nil
			return nil
		}
		if sec.Data == nil {
			sec.Data = map[string][]byte{}
		}
		for k, v := range sec.StringData {
			sec.Data[k] = []byte(v)
		}
		sec.StringData = nil
		return nil
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fmt.Errorf("a Secret of type %T", obj)
	}
	sd, found, err := unstructured.NestedStringMap(u.Object, "stringData")
	if err != nil || !found {
		return err
	}
	data, _, err := unstructured.NestedMap(u.Object, "data")
	if err != nil {
		return fmt.Errorf("secret data: %w", err)
	}
	if data == nil {
		data = map[string]any{}
	}
	keys := make([]string, 0, len(sd))
	for k := range sd {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		data[k] = base64.StdEncoding.EncodeToString([]byte(sd[k]))
	}
	unstructured.RemoveNestedField(u.Object, "stringData")
	return unstructured.SetNestedMap(u.Object, data, "data")
}

// servedTypes returns the types a CRD or APIService serves.
func servedTypes(u *unstructured.Unstructured) ([]TypeInfo, error) {
	switch u.GroupVersionKind().GroupKind() {
	case gkCRD:
		group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
		if group == "" || kind == "" {
			return nil, fmt.Errorf("CRD without spec.group or spec.names.kind")
		}
		return []TypeInfo{{Group: group, Version: "*", Kind: kind}}, nil
	case gkAPIService:
		group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
		version, _, _ := unstructured.NestedString(u.Object, "spec", "version")
		return []TypeInfo{{Group: group, Version: version, Kind: "*"}}, nil
	}
	return nil, nil
}

func matchesType(types []TypeInfo, gvk schema.GroupVersionKind) bool {
	for _, t := range types {
		if t.Group == gvk.Group && (t.Kind == "*" || t.Kind == gvk.Kind) && (t.Version == "*" || t.Version == "" || t.Version == gvk.Version) {
			return true
		}
	}
	return false
}
