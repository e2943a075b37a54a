package generators

import (
	"fmt"

	"github.com/opkit-dev/opkit/api/failure"
)

// ConfigError says a generator was set up wrong: its options, its files
// or the Environment the caller passed. It is failure.ErrInvalid, blamed on
// the operator's author.
type ConfigError struct {
	// Field names the option, file or Environment field at fault.
	Field string
	// Err says what is wrong.
	Err error
}

// Error returns "<field>: <err>".
func (e *ConfigError) Error() string { return fmt.Sprintf("%s: %v", e.Field, e.Err) }

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// Is reports failure.ErrInvalid.
func (e *ConfigError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorOperator.
func (e *ConfigError) Blame() failure.Author { return failure.AuthorOperator }

// FieldPath returns Field.
func (e *ConfigError) FieldPath() string { return e.Field }

// TemplateError says a template (a file of a template tree or chart) could
// not be rendered into objects. It is failure.ErrInvalid: blamed on the
// operator's author when the template itself is wrong, on the component's
// author, at the parameters' path, when the template refused the
// parameters (a `required` or `fail`, a value of the wrong type).
type TemplateError struct {
	// Template is the template's path in its tree or chart.
	Template string
	// Author is whose mistake it is.
	Author failure.Author
	// Field is the absolute path of the offending input when Author is
	// failure.AuthorUser, usually Environment.EffectiveParametersPath().
	Field string
	// Err is what went wrong.
	Err error
}

// Error returns "template <template>: <err>", with the field first when
// one is known.
func (e *TemplateError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: template %s: %v", e.Field, e.Template, e.Err)
	}
	return fmt.Sprintf("template %s: %v", e.Template, e.Err)
}

// Unwrap returns Err.
func (e *TemplateError) Unwrap() error { return e.Err }

// Is reports failure.ErrInvalid.
func (e *TemplateError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns Author.
func (e *TemplateError) Blame() failure.Author { return e.Author }

// FieldPath returns Field.
func (e *TemplateError) FieldPath() string { return e.Field }
