package apply

import (
	"hash/maphash"
	"maps"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
)

// shareStrings returns a cache transform that runs next (when not nil) and
// then makes the strings cached objects repeat share one copy: the
// namespace, label keys and values, annotation keys and values, owner
// references, and the label maps of workload selectors and pod templates.
// Most of a cached object's metadata is such strings (every object of an
// owner carries the same labels and owner reference); shared, each costs
// its map slot alone. Label maps, selectors and pod template labels and
// annotations are shared whole: cached objects with equal labels hold one
// map (sharedMaps), as the objects of one owner mostly do. Annotation
// maps, which hold per-object values such as the digest, and the labels of
// pods, which name the pod, are rebuilt at their final size. The object's
// content does not change; like everything an informer caches, it must
// not be modified in place. Unstructured objects are left as they are.
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
		obj.SetNamespace(Shared(obj.GetNamespace()))
		if _, isPod := in.(*corev1.Pod); isPod {
			// A pod's labels name the pod (its StatefulSet index, say):
			// shared by content, they would only fill the table.
			obj.SetLabels(sharedMap(obj.GetLabels()))
		} else {
			obj.SetLabels(sharedMaps.share(obj.GetLabels()))
		}
		obj.SetAnnotations(sharedMap(obj.GetAnnotations()))
		refs := obj.GetOwnerReferences()
		for i := range refs {
			r := &refs[i]
			r.APIVersion, r.Kind, r.Name = Shared(r.APIVersion), Shared(r.Kind), Shared(r.Name)
			r.UID = types.UID(Shared(string(r.UID)))
		}
		shareSelectors(in)
		return in, nil
	}
}

// shareSelectors shares the label maps workloads repeat inside their spec:
// selectors and pod template labels and annotations.
func shareSelectors(in any) {
	shareTemplate := func(sel *metav1.LabelSelector, tmpl *corev1.PodTemplateSpec) {
		if sel != nil {
			sel.MatchLabels = sharedMaps.share(sel.MatchLabels)
		}
		tmpl.Labels = sharedMaps.share(tmpl.Labels)
		tmpl.Annotations = sharedMaps.share(tmpl.Annotations)
	}
	switch o := in.(type) {
	case *appsv1.StatefulSet:
		shareTemplate(o.Spec.Selector, &o.Spec.Template)
		o.Spec.ServiceName = Shared(o.Spec.ServiceName)
	case *appsv1.Deployment:
		shareTemplate(o.Spec.Selector, &o.Spec.Template)
	case *appsv1.DaemonSet:
		shareTemplate(o.Spec.Selector, &o.Spec.Template)
	case *corev1.Service:
		o.Spec.Selector = sharedMaps.share(o.Spec.Selector)
	case *policyv1.PodDisruptionBudget:
		if s := o.Spec.Selector; s != nil {
			s.MatchLabels = sharedMaps.share(s.MatchLabels)
		}
	}
}

// Shared returns the canonical copy of s, which every caller holding an
// equal string shares. A cache transform of a caller's own kinds (a
// resource's status, say) uses it to share what ManagerOptions' transform
// does not know of.
//
// The canonical copies live in one process-wide table that holds them
// strongly (package unique's table forgets a string as soon as no Handle
// of it is left, so strings decoded on either side of a garbage collection
// would not be shared). The table is bounded: once it holds
// sharedTableLimit strings it starts again empty, so strings of deleted
// objects do not accumulate; strings already shared stay shared.
func Shared(s string) string { return sharedTable.share(s) }

// sharedTableLimit bounds the strings the table holds at once.
const sharedTableLimit = 1 << 16

// sharedTable is the process-wide table of canonical strings: sharing
// across caches needs one table, as package unique's is one.
var sharedTable = &stringTable{m: map[string]string{}}

// stringTable maps each string to its canonical copy.
type stringTable struct {
	mu sync.Mutex
	m  map[string]string
}

func (t *stringTable) share(s string) string {
	if s == "" {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.m[s]; ok {
		return c
	}
	if len(t.m) >= sharedTableLimit {
		t.m = make(map[string]string, len(t.m)/2)
	}
	c := strings.Clone(s)
	t.m[c] = c
	return c
}

// sharedMap returns m rebuilt at its size with canonical keys and values.
func sharedMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[Shared(k)] = Shared(v)
	}
	return out
}

// sharedMapsLimit bounds the maps sharedMaps holds at once.
const sharedMapsLimit = 1 << 12

// sharedMaps is the process-wide table of canonical label maps, for the
// same reason as sharedTable.
var sharedMaps = newMapTable()

// mapTable maps the content of a string map to the one copy of it that
// every cached object with that content holds. It is keyed by a hash of
// the content, so that it keeps no copy of the content beside the map; a
// map whose hash another map already holds is not shared. The copies are
// held strongly; once the table holds sharedMapsLimit of them it starts
// again empty, so that the maps of deleted objects do not accumulate (at
// most sharedMapsLimit of them, a few hundred bytes each, outlive their
// objects).
type mapTable struct {
	seed maphash.Seed
	mu   sync.Mutex
	m    map[uint64]map[string]string
}

func newMapTable() *mapTable {
	return &mapTable{seed: maphash.MakeSeed(), m: map[uint64]map[string]string{}}
}

// share returns the canonical map equal to m: m's content with shared
// strings (sharedMap), the same map for every equal m.
func (t *mapTable) share(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	h := t.hash(m)
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.m[h]; ok {
		if maps.Equal(c, m) {
			return c
		}
		return sharedMap(m) // another content with the same hash
	}
	if len(t.m) >= sharedMapsLimit {
		t.m = make(map[uint64]map[string]string, len(t.m)/2)
	}
	c := sharedMap(m)
	t.m[h] = c
	return c
}

// hash returns a hash of m's content that does not depend on the order of
// its entries: the sum of the hashes of its key and value pairs.
func (t *mapTable) hash(m map[string]string) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	var sum uint64
	for k, v := range m {
		h.Reset()
		h.WriteString(k)
		h.WriteByte(0)
		h.WriteString(v)
		sum += h.Sum64()
	}
	return sum
}
