package component

import (
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/internal/ignored"
	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// ReasonImmutableFieldIgnored is the reason of the Warning event recorded
// on a component when its objects state fields the API server does not let
// change; recorded again only when the list of such fields changes.
const ReasonImmutableFieldIgnored = apply.ReasonImmutableFieldIgnored

// recordTransition records an event on the component when its state or
// reason changed, or when it stays in Error with a new message: one event
// per change, none per pass. Errors and timeouts are Warnings.
func (r *Reconciler[T]) recordTransition(p *pass[T]) {
	o, n := p.orig.GetStatus(), p.status
	reason, msg := reasonOf(n), messageOf(n)
	if o.State == n.State && reasonOf(o) == reason && (n.State != componentv1alpha1.StateError || messageOf(o) == msg) {
		return
	}
	typ := corev1.EventTypeNormal
	if n.State == componentv1alpha1.StateError {
		typ = corev1.EventTypeWarning
	}
	p.log.Info("state changed", "state", n.State, "reason", reason, "message", msg, "revision", n.Revision)
	r.recorder.Eventf(p.comp, nil, typ, reason, "Reconcile", "%s", status.Truncate(msg, status.MaxEventNote))
}

// eventMemory remembers, per component, the immutable fields last
// reported.
type eventMemory struct {
	mu      sync.Mutex
	ignored map[types.NamespacedName]string
}

func newEventMemory() *eventMemory {
	return &eventMemory{ignored: map[types.NamespacedName]string{}}
}

func (m *eventMemory) forget(key types.NamespacedName) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.ignored, key)
}

// swap stores the summary of key and reports whether it changed.
func (m *eventMemory) swap(key types.NamespacedName, summary string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ignored[key] == summary {
		return false
	}
	if summary == "" {
		delete(m.ignored, key)
	} else {
		m.ignored[key] = summary
	}
	return true
}

// ignoredMessage says, one line per object, which values the render asks
// for that the API server does not let change, what they stay and what the
// user can do; "" when nothing was ignored.
func ignoredMessage(res apply.Result) string {
	var lines []string
	for _, c := range res.Changes {
		if msg := ignored.Message(c, "the render"); msg != "" {
			lines = append(lines, msg)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// noteIgnoredFields records an ImmutableFieldIgnored Warning when the
// values the render asks for and cannot have differ from the last ones
// reported.
func (r *Reconciler[T]) noteIgnoredFields(p *pass[T], res apply.Result) {
	summary := ignoredMessage(res)
	if !r.events.swap(p.key, summary) || summary == "" {
		return
	}
	r.recorder.Eventf(p.comp, nil, corev1.EventTypeWarning, ReasonImmutableFieldIgnored, "Reconcile",
		"%s", status.Truncate(summary, status.MaxEventNote))
}

// Reasons of the events of the render record.
const (
	// ReasonStatusRebuilt is the reason of the Normal event recorded when
	// a component's lost status is rebuilt from its render record.
	ReasonStatusRebuilt = "StatusRebuilt"
	// ReasonRenderNotRecorded is the reason of the Warning event recorded
	// when a render cannot be kept in its record (too large for a Secret,
	// or the write failed): a restart of the operator renders it again.
	ReasonRenderNotRecorded = "RenderNotRecorded"
)

// recordNormal records a Normal event on the component.
func (r *Reconciler[T]) recordNormal(p *pass[T], reason, msg string) {
	r.recorder.Eventf(p.comp, nil, corev1.EventTypeNormal, reason, "Reconcile", "%s", status.Truncate(msg, status.MaxEventNote))
}

// recordWarning records a Warning event on the component.
func (r *Reconciler[T]) recordWarning(p *pass[T], reason, msg string) {
	r.recorder.Eventf(p.comp, nil, corev1.EventTypeWarning, reason, "Reconcile", "%s", status.Truncate(msg, status.MaxEventNote))
}
