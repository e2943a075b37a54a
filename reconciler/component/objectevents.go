package component

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
)

// ObjectEventsAnnotation is the suffix of the component annotation
// "<reconciler name>/object-events": "true" records a Normal event on each
// dependent object the reconciler creates, updates or deletes for that
// component, "false" records none, whatever Options.ObjectEvents says.
// Warning events of objects are recorded either way.
const ObjectEventsAnnotation = "object-events"

// objectEventsKey is the annotation that turns a component's object
// events on or off.
func (r *Reconciler[T]) objectEventsKey() string { return r.name + "/" + ObjectEventsAnnotation }

// objectEvents reports whether the Normal events of comp's objects are
// recorded: its annotation if set, else Options.ObjectEvents. A value
// other than true or false is invalid input naming the annotation.
func (r *Reconciler[T]) objectEvents(comp client.Object) (bool, error) {
	key := r.objectEventsKey()
	v, ok := comp.GetAnnotations()[key]
	if !ok {
		return r.opts.ObjectEvents, nil
	}
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, failure.Invalid(failure.AuthorUser, "metadata.annotations["+key+"]", "%q is neither true nor false", v)
}

// warningsOnly records the Warning events it is given and drops the
// others.
type warningsOnly struct{ next events.EventRecorder }

// Eventf implements events.EventRecorder.
func (w warningsOnly) Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...any) {
	if eventtype != corev1.EventTypeWarning {
		return
	}
	w.next.Eventf(regarding, related, eventtype, reason, action, note, args...)
}
