package apply

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
func (r *Reconciler) event(obj *unstructured.Unstructured, warning bool, reason, action, note string, args ...any) {
	if r.opts.Recorder == nil || r.opts.DisableEvents || obj == nil {
		return
	}
	typ := corev1.EventTypeNormal
	if warning {
		typ = corev1.EventTypeWarning
	}
	r.opts.Recorder.Eventf(obj, nil, typ, reason, action, note, args...)
}
