package webhook

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/opkit-dev/opkit/api/failure"
)

// collector gathers what the checks found.
type collector struct {
	errs     field.ErrorList
	warnings []string
}

// add sorts every error in err: the user's invalid input with a field
// becomes a field.Error; anything else (the operator's mistakes, a wait,
// a failed read) a warning, prefixed with context when given.
func (c *collector) add(err error, context string) {
	for _, e := range leaves(err) {
		fp := failure.FieldOf(e)
		if errors.Is(e, failure.ErrInvalid) && failure.AuthorOf(e) == failure.AuthorUser && fp != "" {
			c.errs = append(c.errs, &field.Error{
				Type: field.ErrorTypeInvalid, Field: fp, BadValue: field.OmitValueType{},
				Detail: strings.TrimLeft(strings.TrimPrefix(e.Error(), fp), ": "),
			})
			continue
		}
		msg := e.Error()
		if context != "" {
			msg = context + ": " + msg
		}
		c.warnings = append(c.warnings, msg)
	}
}

func (c *collector) warn(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// result returns the findings sorted, each once.
func (c *collector) result() Result {
	errs := slices.Clone(c.errs)
	slices.SortStableFunc(errs, func(a, b *field.Error) int {
		return cmp.Or(strings.Compare(a.Field, b.Field), strings.Compare(a.Detail, b.Detail))
	})
	errs = slices.CompactFunc(errs, func(a, b *field.Error) bool { return a.Field == b.Field && a.Detail == b.Detail && a.Type == b.Type })
	warnings := slices.Sorted(slices.Values(c.warnings))
	return Result{Errors: errs, Warnings: slices.Compact(warnings)}
}

// leaves returns the errors joined in err, however deep, each as the
// outermost error that still names a field (or the innermost one when none
// does): a wrapped error keeps its field path on its own type.
func leaves(err error) []error {
	if err == nil {
		return nil
	}
	if f, ok := err.(failure.Fielder); ok && f.FieldPath() != "" { //nolint:errorlint // this node of the tree, not its causes
		return []error{err}
	}
	switch u := err.(type) { //nolint:errorlint // descends the tree one wrapper at a time, by design
	case interface{ Unwrap() []error }:
		var out []error
		for _, e := range u.Unwrap() {
			out = append(out, leaves(e)...)
		}
		return out
	case interface{ Unwrap() error }:
		if inner := leaves(u.Unwrap()); len(inner) > 1 || (len(inner) == 1 && failure.FieldOf(inner[0]) != "") {
			return inner
		}
	}
	return []error{err}
}
