package configfold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// The strategic merge patch directives, as
// k8s.io/apimachinery/pkg/util/strategicpatch defines them.
const (
	patchDirective                = "$patch"
	retainKeysDirective           = "$retainKeys"
	setElementOrderPrefix         = "$setElementOrder/"
	deleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList/"
)

// patchDirectiveValues are the values $patch accepts.
func patchDirectiveValues() []string { return []string{"delete", "merge", "replace"} }

// isDirective reports whether key is a strategic merge patch directive.
func isDirective(key string) bool {
	switch {
	case key == patchDirective, key == retainKeysDirective:
		return true
	case strings.HasPrefix(key, setElementOrderPrefix):
		return len(key) > len(setElementOrderPrefix)
	case strings.HasPrefix(key, deleteFromPrimitiveListPrefix):
		return len(key) > len(deleteFromPrimitiveListPrefix)
	}
	return false
}

// decodePodOverride checks a layer's pod override and returns its patch as
// written, or every problem as a *FieldError at its absolute path.
//
// The patch is decoded strictly into a corev1.PodTemplateSpec. The
// directives strategic merge defines are no fields of that type, so the
// unknown-field errors they cause are dropped, and the directives are
// checked on their own: $patch must say replace, merge or delete, the
// others must carry a list, and every field a directive names must exist
// where it stands. Anything else starting with "$" stays an unknown field.
func decodePodOverride(spec *v1alpha1.OverridesSpec, at location) ([]byte, []*FieldError) {
	data, err := rawBytes(spec.PodOverrides)
	if err != nil {
		return nil, placeAll([]*FieldError{asFieldError(err)}, at)
	}
	if data == nil {
		return nil, nil
	}
	var errs []*FieldError
	for _, fe := range strictErrors(data, &corev1.PodTemplateSpec{}) {
		if !errors.Is(fe.Err, ErrUnknownField) || !isDirective(lastSegment(fe.Field)) {
			errs = append(errs, fe)
		}
	}
	var doc any
	if bytes.Contains(data, []byte(`"$`)) && json.Unmarshal(data, &doc) == nil {
		errs = append(errs, checkDirectives(doc)...) // only a key starting with $ can be a directive
	}
	if len(errs) > 0 {
		return nil, placeAll(errs, at)
	}
	return slices.Clone(data), nil
}

// lastSegment returns the last key of a dotted field path.
func lastSegment(field string) string {
	return field[strings.LastIndex(field, ".")+1:]
}

// checkDirectives validates the directives in a decoded patch. The fields
// they name are checked by decoding a probe: the patch without directives,
// with each named field that is not stated beside its directive added as
// null, so the strict decoder reports a name the type does not have.
func checkDirectives(doc any) []*FieldError {
	c := directiveChecker{named: map[string]string{}}
	probe := c.walk(doc, "")
	if len(c.named) > 0 {
		data, err := json.Marshal(probe)
		if err != nil {
			return append(c.errs, &FieldError{Err: fmt.Errorf("%w: %w", ErrMalformed, err)})
		}
		for _, fe := range strictErrors(data, &corev1.PodTemplateSpec{}) {
			if directive, ok := c.named[fe.Field]; ok && errors.Is(fe.Err, ErrUnknownField) {
				c.errs = append(c.errs, &FieldError{Field: directive,
					Err: fmt.Errorf("%w %q", ErrUnknownField, lastSegment(fe.Field))})
			}
		}
	}
	slices.SortStableFunc(c.errs, func(a, b *FieldError) int { return strings.Compare(a.Field, b.Field) })
	return c.errs
}

// directiveChecker walks a patch, checking its directives.
type directiveChecker struct {
	errs []*FieldError
	// named maps the path of a field a directive names, added to the probe,
	// to the directive's path.
	named map[string]string
}

// walk returns v without its directives, with the fields they name added.
func (c *directiveChecker) walk(v any, path string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for _, key := range slices.Sorted(maps.Keys(v)) {
			if !isDirective(key) {
				out[key] = c.walk(v[key], joinField(path, key))
				continue
			}
			for _, name := range c.check(key, v[key], joinField(path, key)) {
				if _, stated := v[name]; !stated {
					out[name] = nil
					c.named[joinField(path, name)] = joinField(path, key)
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = c.walk(e, fmt.Sprintf("%s[%d]", path, i))
		}
		return out
	}
	return v
}

// check validates one directive's value and returns the fields it names.
func (c *directiveChecker) check(key string, value any, path string) []string {
	fail := func(format string, args ...any) []string {
		c.errs = append(c.errs, &FieldError{Field: path, Err: fmt.Errorf(format, args...)})
		return nil
	}
	switch key {
	case patchDirective:
		s, ok := value.(string)
		if !ok || !slices.Contains(patchDirectiveValues(), s) {
			return fail("%w: %v; $patch takes %s", ErrInvalidValue, value, strings.Join(patchDirectiveValues(), ", "))
		}
		return nil
	case retainKeysDirective:
		list, ok := value.([]any)
		if !ok {
			return fail("%w: $retainKeys takes a list of field names", ErrMalformed)
		}
		names := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return fail("%w: $retainKeys takes a list of field names", ErrMalformed)
			}
			names = append(names, s)
		}
		return names
	default: // $setElementOrder/<list> or $deleteFromPrimitiveList/<list>
		if _, ok := value.([]any); !ok {
			return fail("%w: %s takes a list", ErrMalformed, key)
		}
		return []string{key[strings.Index(key, "/")+1:]}
	}
}

// asFieldError returns err as a *FieldError, wrapping it when it is none.
func asFieldError(err error) *FieldError {
	var fe *FieldError
	if errors.As(err, &fe) {
		return fe
	}
	return &FieldError{Err: err}
}

// placeAll places errors found in a pod override at the layer's
// podOverrides.
func placeAll(errs []*FieldError, at location) []*FieldError {
	out := make([]*FieldError, len(errs))
	for i, e := range errs {
		out[i] = &FieldError{Layer: at.Layer, RoleName: at.RoleName, RoleGroupName: at.RoleGroupName,
			Field: joinField("podOverrides", e.Field), Err: e.Err}
	}
	return out
}
