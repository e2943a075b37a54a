package apply

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// planVolatileMetadata are the metadata fields a plan leaves out of the
// objects it shows: the server keeps them, they describe no intent, and
// they change on every write.
var planVolatileMetadata = []string{"managedFields", "resourceVersion", "generation", "uid", "creationTimestamp", "selfLink"}

// lastApplied is the annotation kubectl's client-side apply keeps a copy
// of the whole object in: for a Secret, its data.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// normalised returns a copy of u without what a plan must not show as a
// difference: the server's bookkeeping in metadata and the status. Nil
// stays nil.
func normalised(u *unstructured.Unstructured) *unstructured.Unstructured {
	if u == nil {
		return nil
	}
	out := &unstructured.Unstructured{Object: canonical(u.Object).(map[string]any)}
	for _, f := range planVolatileMetadata {
		unstructured.RemoveNestedField(out.Object, "metadata", f)
	}
	unstructured.RemoveNestedField(out.Object, "status")
	return out
}

// dropAllocated removes from a created object's dry-run answer the values
// the API server allocates on every try (a Service's cluster IPs and node
// ports) which the desired object did not state: a plan would otherwise
// show a different random value each time.
func dropAllocated(u *unstructured.Unstructured, stated client.Object) {
	if u.GroupVersionKind().GroupKind() != gkService {
		return
	}
	if ip, _, _ := unstructured.NestedString(u.Object, "spec", "clusterIP"); ip != "" && !statesField(stated, "spec", "clusterIP") {
		unstructured.RemoveNestedField(u.Object, "spec", "clusterIP")
		unstructured.RemoveNestedField(u.Object, "spec", "clusterIPs")
	}
	ports, _, _ := unstructured.NestedSlice(u.Object, "spec", "ports")
	for i := range ports {
		if m, ok := ports[i].(map[string]any); ok && !statesNodePort(stated, i) {
			delete(m, "nodePort")
		}
	}
	if len(ports) > 0 {
		_ = unstructured.SetNestedSlice(u.Object, ports, "spec", "ports")
	}
}

// statesField reports whether obj states a non-empty value at path.
func statesField(obj client.Object, path ...string) bool {
	u, err := asUnstructured(obj, obj.GetObjectKind().GroupVersionKind())
	if err != nil || u == nil {
		return false
	}
	v, found, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
	return found && v != nil && v != ""
}

// statesNodePort reports whether obj's i-th Service port states a node
// port.
func statesNodePort(obj client.Object, i int) bool {
	u, err := asUnstructured(obj, obj.GetObjectKind().GroupVersionKind())
	if err != nil || u == nil {
		return false
	}
	ports, _, _ := unstructured.NestedSlice(u.Object, "spec", "ports")
	if i >= len(ports) {
		return false
	}
	m, _ := ports[i].(map[string]any)
	n, _ := m["nodePort"].(int64)
	return n != 0
}

// The masks a plan shows for Secret values.
const (
	// MaskUnchanged stands for a Secret value that does not change.
	MaskUnchanged = "***"
	// MaskBefore and MaskAfter stand for a Secret value that changes.
	MaskBefore = "*** (before)"
	// MaskAfter stands for the new value of a Secret key that changes.
	MaskAfter = "*** (after)"
)

// maskSecret replaces the values of a Secret's data (and kubectl's copy
// of it in the last-applied annotation) in both objects, either of which
// may be nil, by masks that say only whether each value changes. Objects
// of other kinds are left alone.
func maskSecret(live, desired *unstructured.Unstructured) {
	if !isSecret(live) && !isSecret(desired) {
		return
	}
	ld, dd := secretData(live), secretData(desired)
	for k, lv := range ld {
		dv, both := dd[k]
		switch {
		case both && dv != lv:
			ld[k], dd[k] = MaskBefore, MaskAfter
		case both:
			ld[k], dd[k] = MaskUnchanged, MaskUnchanged
		default:
			ld[k] = MaskUnchanged
		}
	}
	for k := range dd {
		if _, both := ld[k]; !both {
			dd[k] = MaskUnchanged
		}
	}
	for _, u := range []*unstructured.Unstructured{live, desired} {
		if u == nil {
			continue
		}
		if ann := u.GetAnnotations(); ann[lastApplied] != "" {
			ann[lastApplied] = MaskUnchanged
			u.SetAnnotations(ann)
		}
	}
}

func isSecret(u *unstructured.Unstructured) bool {
	return u != nil && u.GroupVersionKind().GroupKind() == gkSecret
}

// secretData returns the data map of u, in place; nil when there is none.
func secretData(u *unstructured.Unstructured) map[string]any {
	if u == nil {
		return nil
	}
	m, _ := u.Object["data"].(map[string]any)
	return m
}
