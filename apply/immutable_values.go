package apply

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
)

// maxIgnoredValues bounds the values reported per object: a claim template
// added whole is one value, but a template replaced by an unrelated one
// could differ everywhere.
const maxIgnoredValues = 8

// maxValueLen bounds one rendered value, in bytes.
const maxValueLen = 200

// preservedField is a preserved field the desired object states
// differently from the live one, with both values as the rule compared
// them.
type preservedField struct {
	path       string
	live, want any
	// statedOnly: a value the desired object leaves out is no difference
	// (the server adds to the field, as to a Job's template).
	statedOnly bool
}

// preservedFields are what a rule preserved against the desired object's
// wish, in the rule's order.
type preservedFields []preservedField

// add records the field at path with its live and desired values.
func (f preservedFields) add(path string, live, want any) preservedFields {
	return append(f, preservedField{path: path, live: live, want: want})
}

// addStated is add for a field where only what the desired value states
// counts.
func (f preservedFields) addStated(path string, live, want any) preservedFields {
	return append(f, preservedField{path: path, live: live, want: want, statedOnly: true})
}

// report returns the fields' paths and the values that differ within them,
// at most maxIgnoredValues in all.
func (f preservedFields) report() ([]string, []IgnoredValue) {
	var (
		paths  []string
		values []IgnoredValue
	)
	for _, p := range f {
		paths = append(paths, p.path)
		d := differ{statedOnly: p.statedOnly, out: values}
		d.diff(p.path, plain(p.live), plain(p.want))
		values = d.out
	}
	return paths, values
}

// plain turns a typed value into its JSON form (maps, lists, strings,
// numbers, booleans), which is what the diff walks, without empty maps and
// lists: a typed value writes its zero structs as {}, and an empty value
// compares equal to none anyway.
func plain(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return string(b)
	}
	return pruned(out)
}

// pruned drops the empty maps and lists within v, and returns nil for an
// empty v.
func pruned(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if x[k] = pruned(e); x[k] == nil {
				delete(x, k)
			}
		}
		if len(x) == 0 {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
		for i := range x {
			x[i] = pruned(x[i])
		}
	}
	return v
}

// differ collects the leaves where two JSON values differ.
type differ struct {
	statedOnly bool
	out        []IgnoredValue
}

// diff walks live and want together: maps key by key, lists element by
// element (by name when every element of both has a distinct one), and
// records a value where they part.
func (d *differ) diff(path string, live, want any) {
	if len(d.out) >= maxIgnoredValues {
		return
	}
	if want == nil && d.statedOnly {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Collect(maps.Keys(w))
		if !d.statedOnly {
			keys = append(keys, slices.Collect(maps.Keys(l))...)
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			d.diff(path+"."+k, l[k], w[k])
		}
		return
	case []any:
		l, ok := live.([]any)
		if !ok {
			break
		}
		if d.diffNamed(path, l, w) {
			return
		}
		if len(l) == len(w) {
			for i := range w {
				d.diff(fmt.Sprintf("%s[%d]", path, i), l[i], w[i])
			}
			return
		}
	}
	if !equality.Semantic.DeepEqual(live, want) {
		d.out = append(d.out, IgnoredValue{Path: path, Live: render(live), Desired: render(want)})
	}
}

// diffNamed diffs two lists of named elements by name, the desired order
// first, and reports whether they were such lists.
func (d *differ) diffNamed(path string, live, want []any) bool {
	ln, lok := elementNames(live)
	wn, wok := elementNames(want)
	if !lok || !wok || len(live)+len(want) == 0 {
		return false
	}
	order := slices.Clone(wn)
	for _, name := range ln {
		if !slices.Contains(wn, name) {
			order = append(order, name)
		}
	}
	for _, name := range order {
		// A missing element stays a nil any: an absent value.
		var lv, wv any
		if i := slices.Index(ln, name); i >= 0 {
			lv = live[i]
		}
		if i := slices.Index(wn, name); i >= 0 {
			wv = want[i]
		}
		d.diff(path+"[name="+name+"]", lv, wv)
	}
	return true
}

// elementNames returns the names of a list's elements when each is a map
// with a distinct, non-empty name (its metadata.name counts as its name,
// as for claim templates).
func elementNames(list []any) ([]string, bool) {
	var names []string
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		name, _ := m["name"].(string)
		if md, ok := m["metadata"].(map[string]any); ok && name == "" {
			name, _ = md["name"].(string)
		}
		if name == "" || slices.Contains(names, name) {
			return nil, false
		}
		names = append(names, name)
	}
	return names, true
}

// render writes a value for IgnoredValue: a string as it is, anything else
// as compact JSON, bounded; "" for none.
func render(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		s = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	if len(s) > maxValueLen {
		s = s[:maxValueLen] + "…"
	}
	return s
}
