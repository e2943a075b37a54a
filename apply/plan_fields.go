package apply

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// DiffFields returns the fields in which desired differs from live, sorted
// by path, both objects normalised as a plan shows them (no managed
// fields, server bookkeeping or status). Either may be nil: every field of
// the other is then added or removed. Lists of elements that each have a
// distinct name are compared by name, other lists by index; a list whose
// length changes is one change.
func DiffFields(live, desired *unstructured.Unstructured) []FieldChange {
	var l, d map[string]any
	if n := normalised(live); n != nil {
		l = n.Object
	}
	if n := normalised(desired); n != nil {
		d = n.Object
	}
	var out []FieldChange
	walkFields("", l, d, &out)
	slices.SortFunc(out, func(a, b FieldChange) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// walkFields records where live and desired part below path.
func walkFields(path string, live, desired any, out *[]FieldChange) {
	switch {
	case live == nil && desired == nil:
		return
	case live == nil:
		*out = append(*out, FieldChange{Path: path, Change: FieldAdded})
		return
	case desired == nil:
		*out = append(*out, FieldChange{Path: path, Change: FieldRemoved})
		return
	}
	lm, lok := live.(map[string]any)
	dm, dok := desired.(map[string]any)
	if lok && dok {
		keys := slices.Concat(slices.Collect(maps.Keys(lm)), slices.Collect(maps.Keys(dm)))
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			walkFields(fieldPath(path, k), lm[k], dm[k], out)
		}
		return
	}
	ll, lok := live.([]any)
	dl, dok := desired.([]any)
	if lok && dok && walkNamed(path, ll, dl, out) {
		return
	}
	if lok && dok && len(ll) == len(dl) {
		for i := range dl {
			walkFields(fmt.Sprintf("%s[%d]", path, i), ll[i], dl[i], out)
		}
		return
	}
	if !equality.Semantic.DeepEqual(live, desired) {
		*out = append(*out, FieldChange{Path: path, Change: FieldChanged})
	}
}

// walkNamed walks two lists of named elements by name and reports
// whether they were such lists.
func walkNamed(path string, live, desired []any, out *[]FieldChange) bool {
	ln, lok := elementNames(live)
	dn, dok := elementNames(desired)
	if !lok || !dok || len(live) == 0 || len(desired) == 0 {
		return false
	}
	names := slices.Concat(ln, dn)
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		var lv, dv any
		if i := slices.Index(ln, name); i >= 0 {
			lv = live[i]
		}
		if i := slices.Index(dn, name); i >= 0 {
			dv = desired[i]
		}
		walkFields(path+"[name="+name+"]", lv, dv, out)
	}
	return true
}

// fieldPath appends key to path: ".key", or "[key]" for a key that holds
// dots or slashes (labels and annotations).
func fieldPath(path, key string) string {
	if strings.ContainsAny(key, "./[]") {
		return path + "[" + key + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
