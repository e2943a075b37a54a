package apply

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Event reasons of the events emitted per dependent object.
const (
	ReasonCreated               = "Created"
	ReasonUpdated               = "Updated"
	ReasonDeleted               = "Deleted"
	ReasonFailed                = "Failed"
	ReasonImmutableFieldIgnored = "ImmutableFieldIgnored"
)

// event records an event regarding obj when events are on.
func (r *Engine) event(obj client.Object, warning bool, reason, action, note string, args ...any) {
	if r.opts.Recorder == nil || obj == nil || reflect.ValueOf(obj).IsNil() {
		return
	}
	typ := corev1.EventTypeNormal
	if warning {
		typ = corev1.EventTypeWarning
	}
	r.opts.Recorder.Eventf(obj, nil, typ, reason, action, note, args...)
}
