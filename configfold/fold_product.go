package configfold

import (
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// AtomicTag is the struct tag (opkit:"atomic") that lets a product config
// field holding a struct be folded: the field is then replaced wholesale by
// the last layer that states it. It fits a value that is one policy rather
// than a set of knobs; the alternative is to flatten it into pointer fields.
const AtomicTag = "atomic"

var (
	commonType    = reflect.TypeFor[v1alpha1.RoleGroupConfigSpec]()
	commonPtrType = reflect.TypeFor[*v1alpha1.RoleGroupConfigSpec]()
)

// ValidateProductType checks that FoldProduct can fold T, a product's own
// config struct, and returns a *TypeError (several joined) naming each Go
// field that cannot be folded and its JSON name. The rules, per exported
// field:
//
//   - the embedded common block (v1alpha1.RoleGroupConfigSpec, by value or
//     by pointer) is skipped: FoldCommon owns it;
//   - a pointer to a non-struct (*string, *int32, *bool, …) is accepted:
//     nil means "not stated";
//   - a map or a slice is accepted: nil means "not stated", and a stated one
//     replaces the value beneath wholesale ({} or [] clears);
//   - a pointer to a struct is accepted only with the opkit:"atomic" tag,
//     which accepts wholesale replacement;
//   - a bare scalar (string, bool, number) or bare struct is refused: its
//     zero value cannot tell "unset" from a value the user wrote, so the
//     fold could not tell whether it was stated. Use a pointer;
//   - an interface, function or channel is refused, and so is an unexported
//     field, which the fold could not copy.
func ValidateProductType[T any]() error {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		return &TypeError{Type: t.String(), Reason: "must be a struct type, got " + t.Kind().String()}
	}
	var errs []error
	for i := range t.NumField() {
		if reason := fieldRefusal(t.Field(i)); reason != "" {
			f := t.Field(i)
			errs = append(errs, &TypeError{Type: t.String(), GoField: f.Name, JSONName: jsonName(f), Reason: reason})
		}
	}
	return errors.Join(errs...)
}

// fieldRefusal says why a field cannot be folded, or "" when it can.
func fieldRefusal(f reflect.StructField) string {
	if isCommonBlock(f) {
		return ""
	}
	if !f.IsExported() {
		return "unexported fields cannot be folded; export it or move it out of the config type"
	}
	atomic := f.Tag.Get("opkit") == AtomicTag
	switch f.Type.Kind() {
	case reflect.Pointer:
		if f.Type.Elem().Kind() == reflect.Struct && !atomic {
			return `a struct folds only wholesale: tag it opkit:"atomic" to accept that, or flatten it into pointer fields`
		}
		return ""
	case reflect.Map, reflect.Slice:
		return ""
	case reflect.Struct:
		return "a non-pointer struct cannot say it is unset; make it a pointer (tagged opkit:\"atomic\")"
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return "a " + f.Type.Kind().String() + " cannot be folded"
	}
	return "a bare " + f.Type.Kind().String() + " cannot say it is unset, so the fold could not tell whether a layer stated it; make it a pointer"
}

func isCommonBlock(f reflect.StructField) bool {
	return f.Anonymous && (f.Type == commonType || f.Type == commonPtrType)
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// FoldProduct folds a product's own config fields over in's layers, lowest
// precedence first: the operator's declared defaults, the role's config,
// the role group's config; nil layers are skipped and the names in in are
// not needed. Each top-level field is taken from the last layer that states
// it (a non-nil value), with no merging below that level. The embedded
// common block is left unset in the result: fold it with FoldCommon, so the
// two halves never fight over it.
//
// FoldProduct calls ValidateProductType first and returns its error rather
// than a config. The result shares no memory with the layers: a field's
// value is copied with its DeepCopy method when it has one (as
// controller-gen generates) and field by field otherwise.
func FoldProduct[T any](in Layers[T]) (*T, error) {
	if err := ValidateProductType[T](); err != nil {
		return nil, err
	}
	layers := in.ordered()
	out := new(T)
	ov := reflect.ValueOf(out).Elem()
	t := ov.Type()
	for i := range t.NumField() {
		if isCommonBlock(t.Field(i)) {
			continue
		}
		for _, l := range slices.Backward(layers) {
			if l.spec == nil {
				continue
			}
			fv := reflect.ValueOf(l.spec).Elem().Field(i)
			if fv.IsNil() {
				continue
			}
			ov.Field(i).Set(deepCopyValue(fv))
			break
		}
	}
	return out, nil
}
