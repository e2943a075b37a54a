package builders

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
)

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// pointers returns the address of every pointer target, map and non-empty
// slice backing array reachable from v, with the path it was found at.
func pointers(v any) map[uintptr]string {
	seen := map[uintptr]string{}
	var walk func(rv reflect.Value, path string)
	walk = func(rv reflect.Value, path string) {
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() {
				return
			}
			if _, ok := seen[rv.Pointer()]; ok {
				return
			}
			seen[rv.Pointer()] = path
			walk(rv.Elem(), path)
		case reflect.Interface:
			if !rv.IsNil() {
				walk(rv.Elem(), path)
			}
		case reflect.Map:
			if rv.IsNil() {
				return
			}
			seen[rv.Pointer()] = path
			for _, k := range rv.MapKeys() {
				walk(rv.MapIndex(k), path+"["+k.String()+"]")
			}
		case reflect.Slice:
			if rv.Cap() == 0 {
				return
			}
			seen[rv.Pointer()] = path
			for i := range rv.Len() {
				walk(rv.Index(i), path+"[]")
			}
		case reflect.Array:
			for i := range rv.Len() {
				walk(rv.Index(i), path+"[]")
			}
		case reflect.Struct:
			for i := range rv.NumField() {
				walk(rv.Field(i), path+"."+rv.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(v), "")
	return seen
}

// requireNoSharedPointers fails when result reaches memory inputs reach.
func requireNoSharedPointers(t *testing.T, result any, inputs ...any) {
	t.Helper()
	got := pointers(result)
	for _, in := range inputs {
		for p, path := range pointers(in) {
			if rp, ok := got[p]; ok {
				t.Errorf("result%s shares memory with input%s", rp, path)
			}
		}
	}
}

// messages returns the messages of the errors err joins (or of err alone),
// nil for nil; each must be a *ValidationError.
func messages(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var msgs []string
	for _, e := range flatten(err) {
		var verr *ValidationError
		if !errors.As(e, &verr) {
			t.Fatalf("not a *ValidationError: %#v", e)
		}
		msgs = append(msgs, e.Error())
	}
	return msgs
}

// flatten returns the leaves of a tree of joined errors.
func flatten(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, flatten(e)...)
	}
	return out
}
