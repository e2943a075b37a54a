package apply

import (
	"encoding/base64"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

var (
	gkNamespace  = schema.GroupKind{Kind: "Namespace"}
	gkSecret     = schema.GroupKind{Kind: "Secret"}
	gkCRD        = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
	gkAPIService = schema.GroupKind{Group: "apiregistration.k8s.io", Kind: "APIService"}
)

// desired is one validated object of the set.
type desired struct {
	u            *unstructured.Unstructured
	gvk          schema.GroupVersionKind
	ref          string
	key          string
	settings     settings
	digest       string
	managedTypes []TypeInfo
	// managedInstance is set for instances of a type served by a CRD or
	// APIService of the same set.
	managedInstance bool
}

// prepare validates the set and turns it into desired objects, in input
// order. Every problem of the input is an *InvalidObjectError.
func (r *Reconciler) prepare(objects []client.Object) ([]*desired, error) {
	out := make([]*desired, 0, len(objects))
	for i, obj := range objects {
		u, gvk, err := r.toUnstructured(obj)
		if err != nil {
			return nil, &InvalidObjectError{Object: fmt.Sprintf("#%d", i), Reason: err.Error()}
		}
		d := &desired{u: u, gvk: gvk, ref: objectName(gvk.GroupKind(), u.GetNamespace(), u.GetName())}
		if u.GetGenerateName() != "" {
			return nil, &InvalidObjectError{Object: d.ref, Reason: "generateName is not supported: objects need stable names"}
		}
		if u.GetName() == "" {
			return nil, &InvalidObjectError{Object: d.ref, Reason: "name is empty"}
		}
		if d.settings, err = r.parseSettings(u, d.ref); err != nil {
			return nil, err
		}
		if gk := gvk.GroupKind(); d.settings.purgeOrder != nil && (gk == gkNamespace || gk == gkCRD || gk == gkAPIService) {
			return nil, &InvalidObjectError{Object: d.ref, Annotation: r.prefix + AnnotationPurgeOrder, Reason: "not allowed on namespaces, CRDs and APIServices"}
		}
		if gvk.GroupKind() == gkSecret {
			if err := mergeStringData(u); err != nil {
				return nil, &InvalidObjectError{Object: d.ref, Reason: err.Error()}
			}
		}
		if d.managedTypes, err = servedTypes(u); err != nil {
			return nil, &InvalidObjectError{Object: d.ref, Reason: err.Error()}
		}
		out = append(out, d)
	}
	crdScopes := map[schema.GroupKind]bool{}
	var managed []TypeInfo
	for _, d := range out {
		managed = append(managed, d.managedTypes...)
		if d.gvk.GroupKind() == gkCRD {
			scope, _, _ := unstructured.NestedString(d.u.Object, "spec", "scope")
			for _, t := range d.managedTypes {
				crdScopes[schema.GroupKind{Group: t.Group, Kind: t.Kind}] = scope == "Namespaced"
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range out {
		namespaced, err := r.namespaced(d.gvk, crdScopes)
		if err != nil {
			return nil, &RetriableError{Err: fmt.Errorf("object %s: %w", d.ref, err)}
		}
		switch {
		case !namespaced:
			d.u.SetNamespace("")
		case d.u.GetNamespace() == "":
			if r.opts.DefaultNamespace == "" {
				return nil, &InvalidObjectError{Object: d.ref, Reason: "namespaced object without namespace and no default namespace"}
			}
			d.u.SetNamespace(r.opts.DefaultNamespace)
		}
		d.ref = objectName(d.gvk.GroupKind(), d.u.GetNamespace(), d.u.GetName())
		d.key = itemKey(d.gvk.GroupKind(), d.u.GetNamespace(), d.u.GetName())
		if seen[d.key] {
			return nil, &InvalidObjectError{Object: d.ref, Reason: "appears more than once in the set"}
		}
		seen[d.key] = true
		d.managedInstance = matchesType(managed, d.gvk)
		if d.digest, err = r.desiredDigest(d); err != nil {
			return nil, err
		}
	}
	if err := r.checkInstanceDeleteOrder(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkInstanceDeleteOrder rejects an instance of a type the set defines
// whose delete wave comes after its type's: the type is deleted only once
// no instance is left, so such a set could never finish deleting.
func (r *Reconciler) checkInstanceDeleteOrder(set []*desired) error {
	for _, inst := range set {
		if !inst.managedInstance {
			continue
		}
		for _, typ := range set {
			if len(typ.managedTypes) == 0 || !matchesType(typ.managedTypes, inst.gvk) {
				continue
			}
			if inst.settings.delOrder > typ.settings.delOrder {
				return &InvalidObjectError{
					Object:     inst.ref,
					Annotation: r.prefix + AnnotationDeleteOrder,
					Reason: fmt.Sprintf("delete order %d comes after %d of %s, which defines its type and is deleted only once no instance is left",
						inst.settings.delOrder, typ.settings.delOrder, typ.ref),
				}
			}
		}
	}
	return nil
}

func (r *Reconciler) toUnstructured(obj client.Object) (*unstructured.Unstructured, schema.GroupVersionKind, error) {
	if obj == nil {
		return nil, schema.GroupVersionKind{}, fmt.Errorf("object is nil")
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		gvk := u.GroupVersionKind()
		if gvk.Kind == "" || gvk.Version == "" {
			return nil, gvk, fmt.Errorf("unstructured object %q has no apiVersion or kind", u.GetName())
		}
		return u.DeepCopy(), gvk, nil
	}
	gvk, err := apiutil.GVKForObject(obj, r.client.Scheme())
	if err != nil {
		return nil, gvk, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj.DeepCopyObject())
	if err != nil {
		return nil, gvk, err
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvk)
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	unstructured.RemoveNestedField(u.Object, "status")
	return u, gvk, nil
}

func (r *Reconciler) namespaced(gvk schema.GroupVersionKind, crdScopes map[schema.GroupKind]bool) (bool, error) {
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
func mergeStringData(u *unstructured.Unstructured) error {
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
