package reconciler

import (
	"unique"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
)

// shareStrings returns a cache transform that runs next (when not nil) and
// then makes the strings cached objects repeat share one copy: the
// namespace, label keys and values, annotation keys and values and owner
// references. Most of a cached object's metadata is such strings (every
// object of a role group carries the same eight labels, every object of a
// cluster the same owner reference); shared, each costs its map slot
// alone. Label and annotation maps are rebuilt at their final size. The
// object's content does not change. Unstructured objects are left as they
// are.
func shareStrings(next toolscache.TransformFunc) toolscache.TransformFunc {
	return func(in any) (any, error) {
		if next != nil {
			out, err := next(in)
			if err != nil {
				return nil, err
			}
			in = out
		}
		obj, ok := in.(metav1.Object)
		if _, isU := in.(*unstructured.Unstructured); !ok || isU {
			return in, nil
		}
		obj.SetNamespace(shared(obj.GetNamespace()))
		obj.SetLabels(sharedMap(obj.GetLabels()))
		obj.SetAnnotations(sharedMap(obj.GetAnnotations()))
		refs := obj.GetOwnerReferences()
		for i := range refs {
			r := &refs[i]
			r.APIVersion, r.Kind, r.Name = shared(r.APIVersion), shared(r.Kind), shared(r.Name)
			r.UID = types.UID(shared(string(r.UID)))
		}
		shareSelectors(in)
		if c, isCluster := in.(Cluster); isCluster {
			shareStatus(c.GetClusterStatus())
		}
		return in, nil
	}
}

// shareStatus shares the strings a cluster resource's status repeats (the
// condition types and reasons, the inventories' groups, versions, kinds
// and namespaces) and trims its inventories to their length.
func shareStatus(st *commonsv1alpha1.ClusterStatus) {
	for i := range st.Conditions {
		c := &st.Conditions[i]
		c.Type, c.Reason, c.Message = shared(c.Type), shared(c.Reason), shared(c.Message)
	}
	shareInventory(&st.Objects)
	for i := range st.Roles {
		shareInventory(&st.Roles[i].Objects)
	}
	for i := range st.RoleGroups {
		shareInventory(&st.RoleGroups[i].Objects)
	}
}

func shareInventory(inv *inventory.Inventory) {
	if len(inv.Items) == 0 {
		return
	}
	items := make([]inventory.Item, len(inv.Items))
	copy(items, inv.Items)
	for i := range items {
		it := &items[i]
		it.Group, it.Version, it.Kind, it.Namespace = shared(it.Group), shared(it.Version), shared(it.Kind), shared(it.Namespace)
	}
	inv.Items = items
}

// shareSelectors shares the label maps the managed kinds repeat inside
// their spec: selectors and pod template labels.
func shareSelectors(in any) {
	switch o := in.(type) {
	case *appsv1.StatefulSet:
		if s := o.Spec.Selector; s != nil {
			s.MatchLabels = sharedMap(s.MatchLabels)
		}
		o.Spec.Template.Labels = sharedMap(o.Spec.Template.Labels)
		o.Spec.Template.Annotations = sharedMap(o.Spec.Template.Annotations)
		o.Spec.ServiceName = shared(o.Spec.ServiceName)
	case *corev1.Service:
		o.Spec.Selector = sharedMap(o.Spec.Selector)
	case *policyv1.PodDisruptionBudget:
		if s := o.Spec.Selector; s != nil {
			s.MatchLabels = sharedMap(s.MatchLabels)
		}
	}
}

// shared returns the canonical copy of s.
func shared(s string) string { return unique.Make(s).Value() }

// sharedMap returns m rebuilt at its size with canonical keys and values.
func sharedMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[shared(k)] = shared(v)
	}
	return out
}
