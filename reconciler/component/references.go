package component

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
)

// NotFoundPolicy says what a missing ConfigMap, Secret or key of a
// reference means. The operator's author sets it per spec field with the
// struct tag `opkit:"notFound=<policy>"`; fields below inherit it.
type NotFoundPolicy string

const (
	// NotFoundIgnoreOnDeletion fails a pass that applies, and lets a
	// deletion go on as if the data were empty. It is the default: a
	// namespace being deleted may take a component's Secret before the
	// component.
	NotFoundIgnoreOnDeletion NotFoundPolicy = "ignoreOnDeletion"
	// NotFoundFail fails every pass, deletions included. The kubeconfig of
	// a ClientSpec has it: deleting against the wrong cluster would leak
	// the remote objects.
	NotFoundFail NotFoundPolicy = "fail"
	// NotFoundIgnore treats missing data as empty; the reference's Found
	// reports false.
	NotFoundIgnore NotFoundPolicy = "ignore"
)

// maxSpecDepth bounds the walk of a spec, against cyclic pointers.
const maxSpecDepth = 64

// step is one step of a path into the parameters: a field or map key, or
// a slice index.
type step struct {
	key     string
	index   int
	isIndex bool
}

// foundRef is a reference found in a spec.
type foundRef struct {
	// field is the absolute path as the component's author writes it,
	// such as "spec.credentials" or "spec.sources[1].secretRef".
	field string
	// path leads to the reference in the parameters.
	path   []step
	ref    componentv1alpha1.Reference
	custom CustomReference
	policy NotFoundPolicy
}

// walker finds the references of a spec.
type walker struct {
	found []foundRef
	// commits write map values back after the references in them loaded.
	commits []func()
	err     error
}

// findReferences returns the references in spec (a pointer to a struct),
// in field order, with fields named below root. Call commit after loading
// them, so that references held by value in maps keep what they loaded.
func findReferences(spec any, root string) (refs []foundRef, commit func(), err error) {
	w := &walker{}
	w.walk(reflect.ValueOf(spec), root, nil, NotFoundIgnoreOnDeletion, 0)
	return w.found, func() {
		for _, c := range w.commits {
			c()
		}
	}, w.err
}

func (w *walker) walk(v reflect.Value, field string, path []step, policy NotFoundPolicy, depth int) {
	if depth > maxSpecDepth || !v.IsValid() || w.err != nil {
		return
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer && w.record(v.Interface(), field, path, policy) {
			return
		}
		w.walk(v.Elem(), field, path, policy, depth+1)
		return
	}
	if v.CanAddr() && w.record(v.Addr().Interface(), field, path, policy) {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		w.walkStruct(v, field, path, policy, depth)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i), field+"["+strconv.Itoa(i)+"]", append(slices.Clip(path), step{index: i, isIndex: true}), policy, depth+1)
		}
	case reflect.Map:
		w.walkMap(v, field, path, policy, depth)
	}
}

// walkStruct walks the exported fields of a struct under their JSON names;
// inlined fields keep the struct's path.
func (w *walker) walkStruct(v reflect.Value, field string, path []step, policy NotFoundPolicy, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, inline, skip := jsonName(sf)
		if skip {
			continue
		}
		p, err := tagPolicy(sf, policy)
		if err != nil {
			w.err = fmt.Errorf("field %s.%s: %w", t, sf.Name, err)
			return
		}
		if inline {
			w.walk(v.Field(i), field, path, p, depth+1)
		} else {
			w.walk(v.Field(i), field+"."+name, append(slices.Clip(path), step{key: name}), p, depth+1)
		}
	}
}

// walkMap walks the values of a map with string keys, in key order.
func (w *walker) walkMap(v reflect.Value, field string, path []step, policy NotFoundPolicy, depth int) {
	if v.Type().Key().Kind() != reflect.String {
		return
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		elem := v.MapIndex(k)
		sub := append(slices.Clip(path), step{key: k.String()})
		if elem.Kind() == reflect.Pointer || elem.Kind() == reflect.Interface {
			w.walk(elem, field+"."+k.String(), sub, policy, depth+1)
			continue
		}
		// Map values are not addressable: walk a copy, and write it back
		// once its references are loaded.
		cp := reflect.New(elem.Type()).Elem()
		cp.Set(elem)
		before := len(w.found)
		w.walk(cp, field+"."+k.String(), sub, policy, depth+1)
		if len(w.found) > before {
			m, key := v, k
			w.commits = append(w.commits, func() { m.SetMapIndex(key, cp) })
		}
	}
}

// record notes p when it is a reference that is set, and reports whether
// it is a reference at all (set or not: its fields are not walked).
func (w *walker) record(p any, field string, path []step, policy NotFoundPolicy) bool {
	switch ref := p.(type) {
	case componentv1alpha1.Reference:
		if ref.Referenced().Name != "" {
			w.found = append(w.found, foundRef{field: field, path: path, ref: ref, policy: policy})
		}
		return true
	case CustomReference:
		w.found = append(w.found, foundRef{field: field, path: path, custom: ref, policy: policy})
		return true
	}
	return false
}

// jsonName returns the JSON name of a struct field, whether it is inlined
// (an embedded struct without a name, or ",inline") and whether it is not
// serialized at all.
func jsonName(sf reflect.StructField) (name string, inline, skip bool) {
	tag, ok := sf.Tag.Lookup("json")
	if tag == "-" {
		return "", false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	if slices.Contains(strings.Split(opts, ","), "inline") {
		return "", true, false
	}
	if name == "" {
		if sf.Anonymous && (!ok || tag == "" || strings.HasPrefix(tag, ",")) {
			return "", true, false
		}
		name = sf.Name
	}
	return name, false, false
}

// tagPolicy reads `opkit:"notFound=<policy>"`; without it the inherited
// policy holds.
func tagPolicy(sf reflect.StructField, inherited NotFoundPolicy) (NotFoundPolicy, error) {
	tag, ok := sf.Tag.Lookup("opkit")
	if !ok {
		return inherited, nil
	}
	for opt := range strings.SplitSeq(tag, ",") {
		v, found := strings.CutPrefix(strings.TrimSpace(opt), "notFound=")
		if !found {
			continue
		}
		switch p := NotFoundPolicy(v); p {
		case NotFoundFail, NotFoundIgnore, NotFoundIgnoreOnDeletion:
			return p, nil
		default:
			return inherited, fmt.Errorf("unknown notFound policy %q in tag `opkit:%q`", v, tag)
		}
	}
	return inherited, nil
}

// inject adds each loaded reference's Resolved content to the parameters
// at its place.
func inject(params map[string]any, refs []foundRef) {
	for _, f := range refs {
		if f.ref == nil {
			continue
		}
		node := locate(params, f.path)
		if node == nil {
			continue
		}
		for k, v := range f.ref.Resolved() {
			node[k] = v
		}
	}
}

// locate follows path through maps and slices and returns the map at its
// end, nil when the path does not lead to one.
func locate(params map[string]any, path []step) map[string]any {
	var cur any = params
	for _, s := range path {
		switch c := cur.(type) {
		case map[string]any:
			if s.isIndex {
				return nil
			}
			cur = c[s.key]
		case []any:
			if !s.isIndex || s.index >= len(c) {
				return nil
			}
			cur = c[s.index]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}
