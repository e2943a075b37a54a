package apply

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// prepare validates the set and turns it into desired objects, in input
// order, in three steps: each object alone (copy, names, annotations),
// the types the set itself serves (CRDs and APIServices), then each
// object's scope, key and digest, and the orders of the whole set. Every
// problem of the input is an *InvalidObjectError.
func (r *Engine) prepare(owner Owner, objects []client.Object) ([]*desired, error) {
	out := make([]*desired, 0, len(objects))
	pos := map[*desired]int{}
	for i, obj := range objects {
		d, err := r.copyAndCheck(obj, i)
		if err != nil {
			return nil, err
		}
		pos[d] = i
		out = append(out, d)
	}
	served := collectServed(out)
	seen := make(map[inventory.Key]bool, len(out))
	// One REST mapping per kind and pass: the mapper is slow to ask.
	scopes := map[schema.GroupVersionKind]scopeAnswer{}
	for _, d := range out {
		if err := r.placeObject(d, owner, served, scopes, pos[d]); err != nil {
			return nil, err
		}
		if seen[d.key] {
			return nil, r.invalid(d.ref, pos[d], "", "appears more than once in the set")
		}
		seen[d.key] = true
		var err error
		if d.digest, err = r.desiredDigest(d, owner); err != nil {
			return nil, err
		}
	}
	if err := r.checkOrders(out, pos); err != nil {
		return nil, err
	}
	return out, nil
}

// copyAndCheck makes the engine's copy of the i-th object and checks what
// the object alone decides: a stable name, the engine's annotations, a
// Secret's stringData, the types a CRD or APIService serves.
func (r *Engine) copyAndCheck(obj client.Object, i int) (*desired, error) {
	own, gvk, err := r.privateCopy(obj)
	if err != nil {
		return nil, r.invalid(inventory.Ref{}, i, "", "%v", err)
	}
	d := &desired{obj: own, gvk: gvk}
	if u, ok := own.(*unstructured.Unstructured); ok {
		d.u = u
	}
	d.setRef()
	if own.GetGenerateName() != "" {
		return nil, r.invalid(d.ref, i, "", "generateName is not supported: objects need stable names")
	}
	if own.GetName() == "" {
		return nil, r.invalid(d.ref, i, "", "name is empty")
	}
	if d.settings, err = r.parseSettings(own, d.ref, i); err != nil {
		return nil, err
	}
	gk := gvk.GroupKind()
	if d.settings.purgeOrder != nil && (gk == gkNamespace || gk == gkCRD || gk == gkAPIService) {
		return nil, r.invalid(d.ref, i, r.prefix+AnnotationPurgeOrder, "not allowed on namespaces, CRDs and APIServices")
	}
	if gk == gkSecret {
		if err := mergeStringData(own); err != nil {
			return nil, r.invalid(d.ref, i, "", "%v", err)
		}
	}
	if gk == gkCRD || gk == gkAPIService {
		c, err := d.content()
		if err != nil {
			return nil, r.invalid(d.ref, i, "", "%v", err)
		}
		if d.managedTypes, err = servedTypes(c); err != nil {
			return nil, r.invalid(d.ref, i, "", "%v", err)
		}
	}
	return d, nil
}

// servedBySet are the types the CRDs and APIServices of a set serve.
type servedBySet struct {
	// managed are all of them; aggregated those of APIServices.
	managed, aggregated []TypeInfo
	// crdScopes says, per kind a CRD of the set defines, whether it is
	// namespaced.
	crdScopes map[schema.GroupKind]bool
}

func collectServed(out []*desired) servedBySet {
	s := servedBySet{crdScopes: map[schema.GroupKind]bool{}}
	for _, d := range out {
		s.managed = append(s.managed, d.managedTypes...)
		switch d.gvk.GroupKind() {
		case gkCRD:
			c, _ := d.content()
			scope, _, _ := unstructured.NestedString(c.Object, "spec", "scope")
			for _, t := range d.managedTypes {
				s.crdScopes[schema.GroupKind{Group: t.Group, Kind: t.Kind}] = scope == "Namespaced"
			}
		case gkAPIService:
			s.aggregated = append(s.aggregated, d.managedTypes...)
		}
	}
	return s
}

// placeObject decides an object's scope: cluster-scoped objects lose
// their namespace, namespaced ones get the owner's default; an instance
// of a type an APIService of the set serves keeps what is written and
// waits for its type.
func (r *Engine) placeObject(d *desired, owner Owner, served servedBySet, scopes map[schema.GroupVersionKind]scopeAnswer, pos int) error {
	d.managedInstance = matchesType(served.managed, d.gvk)
	a, ok := scopes[d.gvk]
	if !ok {
		a.namespaced, a.err = r.namespaced(d.gvk, served.crdScopes)
		scopes[d.gvk] = a
	}
	switch err := a.err; {
	case err != nil && matchesType(served.aggregated, d.gvk):
		// Served by an APIService of the set that may not be available
		// yet: the scope is the one written, and the object waits for its
		// type like any managed instance.
		d.apiServiceInstance = true
	case err != nil && isNoMatch(err):
		return failure.RequeueAfter(typeWait, "object %s: its type is not served (yet): %v", d.ref, err)
	case err != nil:
		return apierr.Classify(err)
	case !a.namespaced:
		d.setNamespace("")
	case d.obj.GetNamespace() == "":
		if owner.DefaultNamespace == "" {
			return r.invalid(d.ref, pos, "", "namespaced object without namespace and no default namespace")
		}
		d.setNamespace(owner.DefaultNamespace)
	}
	d.setRef()
	return nil
}

// scopeAnswer is a memoised answer of namespaced.
type scopeAnswer struct {
	namespaced bool
	err        error
}
