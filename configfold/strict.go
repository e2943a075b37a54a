package configfold

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	sigsjson "sigs.k8s.io/json"
)

// rawBytes returns the JSON a RawExtension holds, or nil when it states
// nothing.
func rawBytes(raw *runtime.RawExtension) ([]byte, error) {
	if raw == nil {
		return nil, nil
	}
	data := raw.Raw
	if len(data) == 0 && raw.Object != nil {
		b, err := json.Marshal(raw.Object)
		if err != nil {
			return nil, &FieldError{Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
		}
		data = b
	}
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	return data, nil
}

// decodeStrict decodes JSON into v and reports every problem as a
// *FieldError naming the field, joined with errors.Join.
func decodeStrict(data []byte, v any) error {
	errs := strictErrors(data, v)
	joined := make([]error, len(errs))
	for i, e := range errs {
		joined[i] = e
	}
	return errors.Join(joined...)
}

// strictErrors decodes JSON into v and returns every problem as a
// *FieldError naming the field relative to the document, in document order.
func strictErrors(data []byte, v any) []*FieldError {
	strictErrs, err := sigsjson.UnmarshalStrict(data, v)
	if err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return []*FieldError{{Field: typeErr.Field, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}}
		}
		return []*FieldError{{Err: fmt.Errorf("%w: %w", ErrMalformed, err)}}
	}
	errs := make([]*FieldError, 0, len(strictErrs))
	for _, e := range strictErrs {
		fe := &FieldError{Err: fmt.Errorf("%w: %w", ErrMalformed, e)}
		var pathErr sigsjson.FieldError
		if errors.As(e, &pathErr) {
			fe.Field = pathErr.FieldPath()
			// The library reports the kind only in its message.
			switch {
			case strings.HasPrefix(e.Error(), "unknown field"):
				fe.Err = ErrUnknownField
			case strings.HasPrefix(e.Error(), "duplicate field"):
				fe.Err = ErrDuplicateField
			}
		}
		errs = append(errs, fe)
	}
	return errs
}
