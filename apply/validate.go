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

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
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
	u            *unstructured.Unstructured
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
func (r *Reconciler) invalid(ref inventory.Ref, pos int, annotation, format string, args ...any) *InvalidObjectError {
	return &InvalidObjectError{Object: ref, Position: pos, Annotation: annotation, Reason: fmt.Sprintf(format, args...), Author: r.opts.ObjectsAuthor}
}

// prepare validates the set and turns it into desired objects, in input
// order. Every problem of the input is an *InvalidObjectError.
func (r *Reconciler) prepare(owner Owner, objects []client.Object) ([]*desired, error) {
	out := make([]*desired, 0, len(objects))
	pos := map[*desired]int{}
	for i, obj := range objects {
		u, gvk, err := r.toUnstructured(obj)
		if err != nil {
			return nil, r.invalid(inventory.Ref{}, i, "", "%v", err)
		}
		d := &desired{u: u, gvk: gvk}
		d.setRef()
		pos[d] = i
		if u.GetGenerateName() != "" {
			return nil, r.invalid(d.ref, i, "", "generateName is not supported: objects need stable names")
		}
		if u.GetName() == "" {
			return nil, r.invalid(d.ref, i, "", "name is empty")
		}
		if d.settings, err = r.parseSettings(u, d.ref, i); err != nil {
			return nil, err
		}
		if gk := gvk.GroupKind(); d.settings.purgeOrder != nil && (gk == gkNamespace || gk == gkCRD || gk == gkAPIService) {
			return nil, r.invalid(d.ref, i, r.prefix+AnnotationPurgeOrder, "not allowed on namespaces, CRDs and APIServices")
		}
		if gvk.GroupKind() == gkSecret {
			if err := mergeStringData(u); err != nil {
				return nil, r.invalid(d.ref, i, "", "%v", err)
			}
		}
		if d.managedTypes, err = servedTypes(u); err != nil {
			return nil, r.invalid(d.ref, i, "", "%v", err)
		}
		out = append(out, d)
	}
	crdScopes := map[schema.GroupKind]bool{}
	var managed, aggregated []TypeInfo
	for _, d := range out {
		managed = append(managed, d.managedTypes...)
		switch d.gvk.GroupKind() {
		case gkCRD:
			scope, _, _ := unstructured.NestedString(d.u.Object, "spec", "scope")
			for _, t := range d.managedTypes {
				crdScopes[schema.GroupKind{Group: t.Group, Kind: t.Kind}] = scope == "Namespaced"
			}
		case gkAPIService:
			aggregated = append(aggregated, d.managedTypes...)
		}
	}
	seen := make(map[inventory.Key]bool, len(out))
	// One REST mapping per kind and pass: the mapper is slow to ask.
	scopes := map[schema.GroupVersionKind]scopeAnswer{}
	for _, d := range out {
		d.managedInstance = matchesType(managed, d.gvk)
		a, ok := scopes[d.gvk]
		if !ok {
			a.namespaced, a.err = r.namespaced(d.gvk, crdScopes)
			scopes[d.gvk] = a
		}
		namespaced, err := a.namespaced, a.err
		switch {
		case err != nil && matchesType(aggregated, d.gvk):
			// Served by an APIService of the set that may not be available
			// yet: the scope is the one written, and the object waits for
			// its type like any managed instance.
			d.apiServiceInstance = true
		case err != nil && isNoMatch(err):
			return nil, failure.RequeueAfter(typeWait, "object %s: its type is not served (yet): %v", d.ref, err)
		case err != nil:
			return nil, apierr.Classify(err)
		case !namespaced:
			d.u.SetNamespace("")
		case d.u.GetNamespace() == "":
			if owner.DefaultNamespace == "" {
				return nil, r.invalid(d.ref, pos[d], "", "namespaced object without namespace and no default namespace")
			}
			d.u.SetNamespace(owner.DefaultNamespace)
		}
		d.setRef()
		if seen[d.key] {
			return nil, r.invalid(d.ref, pos[d], "", "appears more than once in the set")
		}
		seen[d.key] = true
		if d.digest, err = r.desiredDigest(d, owner); err != nil {
			return nil, err
		}
	}
	if err := r.checkOrders(out, pos); err != nil {
		return nil, err
	}
	return out, nil
}

// scopeAnswer is a memoised answer of namespaced.
type scopeAnswer struct {
	namespaced bool
	err        error
}

func (d *desired) setRef() {
	d.ref = inventory.Ref{Group: d.gvk.Group, Version: d.gvk.Version, Kind: d.gvk.Kind, Namespace: d.u.GetNamespace(), Name: d.u.GetName()}
	d.key = d.ref.Key()
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
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
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
