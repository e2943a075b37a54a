package generators

import (
	"context"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
)

// Warning is something a rendering did that its reader should learn of,
// though it succeeded: an object left out, an input ignored. A generator
// reports it with Environment.Warn; the caller collects it through
// Environment.OnWarning and can record it as a Warning event on the
// component (Reason as the event's reason, Object as its related object,
// Message as its note).
type Warning struct {
	// Reason says what happened in one UpperCamelCase word, as an event's
	// reason does.
	Reason string
	// Author is whose input caused it: failure.AuthorOperator for a
	// chart or tree, failure.AuthorUser for the parameters.
	Author failure.Author
	// Source is the template or file concerned, named as in TemplateError.
	Source string
	// Object is the object concerned (APIVersion, Kind, Namespace, Name),
	// zero when there is none.
	Object corev1.ObjectReference
	// Message says what happened and why, in a sentence.
	Message string
}

// Warn logs w on the context's logger and hands it to OnWarning when
// there is one. Generators call it for each warning, in the order they
// meet them, from the goroutine that called Generate.
func (e Environment) Warn(ctx context.Context, w Warning) {
	logr.FromContextOrDiscard(ctx).Info("rendering warning", "reason", w.Reason, "author", w.Author.String(),
		"source", w.Source, "kind", w.Object.Kind, "namespace", w.Object.Namespace, "name", w.Object.Name,
		"message", w.Message)
	if e.OnWarning != nil {
		e.OnWarning(w)
	}
}
