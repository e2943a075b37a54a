package configfold

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// AffinityMember names one of the three members of a corev1.Affinity, by
// its JSON name.
type AffinityMember string

// The members of a corev1.Affinity, in the order reports list them.
const (
	NodeAffinity    AffinityMember = "nodeAffinity"
	PodAffinity     AffinityMember = "podAffinity"
	PodAntiAffinity AffinityMember = "podAntiAffinity"
)

// DecodeAffinity decodes a schema-free affinity value strictly into a
// corev1.Affinity and returns it normalized (see NormalizeAffinity).
//
// Strict means: field names match case-sensitively, a field the Kubernetes
// type does not have (nodeAffinty), a field stated twice, a value of the
// wrong type and data after the JSON object are all errors. Each is a
// *FieldError whose Field is the path inside the affinity; several are
// joined with errors.Join. Called on its own, DecodeAffinity knows no layer,
// so its errors name the field relative to the affinity value and blame no
// one; FoldCommon reports the same errors placed in their layer, with
// absolute paths. The API server cannot catch any of this because
// the CRD keeps affinity schema-free, and a misspelt member would otherwise
// decode into an empty affinity that schedules pods anywhere. A field from a
// newer Kubernetes version than this module is built against is refused for
// the same reason: it could not be honoured.
//
// A nil or empty raw value, or JSON null, decodes to nil with no error, as
// does {} (an affinity with nothing in it is the same as none). The input is
// JSON, which is what the API server stores.
func DecodeAffinity(raw *runtime.RawExtension) (*corev1.Affinity, error) {
	data, err := rawBytes(raw)
	if err != nil || data == nil {
		return nil, err
	}
	var a corev1.Affinity
	if err := decodeStrict(data, &a); err != nil {
		return nil, err
	}
	return NormalizeAffinity(&a), nil
}

// EncodeAffinity is DecodeAffinity's inverse: it turns a typed affinity into
// the schema-free value RoleGroupConfigSpec carries, so an operator writes
// its defaults with the Kubernetes types instead of a JSON literal. The value
// is encoded as given; DecodeAffinity(EncodeAffinity(a)) equals
// NormalizeAffinity(a). A nil affinity encodes to nil (not stated).
func EncodeAffinity(a *corev1.Affinity) (*runtime.RawExtension, error) {
	if a == nil {
		return nil, nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encoding affinity: %w", err)
	}
	return &runtime.RawExtension{Raw: b}, nil
}

// NormalizeAffinity returns a copy of a in the canonical form FoldCommon
// produces, so a hand-built affinity encodes to the same bytes as a folded
// one and an operator comparing the two sees no spurious difference on every
// reconcile. A member with nothing in it is removed (absent, not an empty
// struct), an empty list or map that JSON would omit becomes nil, and an
// affinity left with no member is nil. The input is not modified.
func NormalizeAffinity(a *corev1.Affinity) *corev1.Affinity {
	if a == nil {
		return nil
	}
	c := a.DeepCopy()
	pruneOmittedEmpty(reflect.ValueOf(c))
	if c.NodeAffinity != nil && reflect.ValueOf(*c.NodeAffinity).IsZero() {
		c.NodeAffinity = nil
	}
	if c.PodAffinity != nil && reflect.ValueOf(*c.PodAffinity).IsZero() {
		c.PodAffinity = nil
	}
	if c.PodAntiAffinity != nil && reflect.ValueOf(*c.PodAntiAffinity).IsZero() {
		c.PodAntiAffinity = nil
	}
	if len(affinityMembers(c)) == 0 {
		return nil
	}
	return c
}

// affinityMembers lists the members a states, in report order.
func affinityMembers(a *corev1.Affinity) []AffinityMember {
	if a == nil {
		return nil
	}
	var m []AffinityMember
	if a.NodeAffinity != nil {
		m = append(m, NodeAffinity)
	}
	if a.PodAffinity != nil {
		m = append(m, PodAffinity)
	}
	if a.PodAntiAffinity != nil {
		m = append(m, PodAntiAffinity)
	}
	return m
}

// pruneOmittedEmpty sets every empty slice or map whose JSON tag says
// omitempty to nil, walking through pointers, structs and slices. Those are
// exactly the values a JSON round trip turns into nil; lists without
// omitempty keep their emptiness, as JSON does. Pointers to empty structs are
// kept: an empty label selector matches every pod, unlike a missing one.
func pruneOmittedEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			pruneOmittedEmpty(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			pruneOmittedEmpty(v.Index(i))
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			pruneOmittedEmpty(fv)
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) &&
				!fv.IsNil() && fv.Len() == 0 && hasOmitEmpty(f) {
				fv.SetZero()
			}
		}
	}
}

func hasOmitEmpty(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	for opt := range strings.SplitSeq(opts, ",") {
		if opt == "omitempty" {
			return true
		}
	}
	return false
}
