package reconciler

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/failure"
)

// warning is an event the pass records on the cluster resource, with the
// object it concerns when there is one.
type warning struct {
	reason, message string
	related         *corev1.ObjectReference
}

// pass gathers what one reconciliation of one cluster resource found: the
// errors of each scope (a failure of one role group does not stop the
// others), the warnings to record, whether every object is applied and
// ready, and when to look again.
type pass struct {
	// mu guards what the role groups of a role, reconciled concurrently,
	// record: errs, warnings, normals, settled and requeue.
	mu       sync.Mutex
	log      logr.Logger
	now      time.Time
	errs     []error
	warnings []warning
	normals  []warning
	// settled is false when an applied scope is not done (a wave waits for
	// readiness, a delete is in flight) or a StatefulSet still rolls out.
	settled bool
	// requeue is the earliest wake-up a step asked for; zero for none.
	requeue time.Duration
	// cleanup describes removed role groups still being retired.
	cleanup []string
	// ignored describes values of fields that cannot change which the
	// spec asks to change; see ignored.go.
	ignored []string
	// health is the health verdict; see health.go.
	health health
	// planning, when set, makes the pass a plan: see plan.go.
	planning *planLog
}

func newPass(log logr.Logger, now time.Time) *pass {
	return &pass{log: log, now: now, settled: true}
}

// fail records a scope's failure, prefixed by where it happened.
func (p *pass) fail(where string, err error) {
	if err == nil {
		return
	}
	if where != "" {
		err = fmt.Errorf("%s: %w", where, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, err)
}

// warn records a Warning event.
func (p *pass) warn(reason, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.warnings = append(p.warnings, warning{reason: reason, message: fmt.Sprintf(format, args...)})
}

// warnRelated records a Warning event about related.
func (p *pass) warnRelated(related *corev1.ObjectReference, reason, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.warnings = append(p.warnings, warning{reason: reason, message: fmt.Sprintf(format, args...), related: related})
}

// ignore records a value of the spec that cannot be applied: a Warning
// event, and a reason why the pass is not complete.
func (p *pass) ignore(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.warnings = append(p.warnings, warning{reason: ReasonImmutableFieldIgnored, message: msg})
	p.ignored = append(p.ignored, msg)
}

// note records a Normal event about related (nil for none).
func (p *pass) note(related *corev1.ObjectReference, reason, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.normals = append(p.normals, warning{reason: reason, message: fmt.Sprintf(format, args...), related: related})
}

// wakeAfter asks for the next pass no later than d from now.
func (p *pass) wakeAfter(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d > 0 && (p.requeue == 0 || d < p.requeue) {
		p.requeue = d
	}
}

// unsettle records that something applied is not done yet.
func (p *pass) unsettle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.settled = false
}

// err returns the pass's errors joined, in the order they happened (roles
// and groups are visited sorted, so the message is stable from pass to
// pass and does not defeat the status no-op check).
func (p *pass) err() error { return errors.Join(p.errs...) }

// rateLimited reports whether the pass hit a 429, which stops it at once.
func (p *pass) rateLimited() bool {
	return slices.ContainsFunc(p.errs, func(e error) bool { return errors.Is(e, failure.ErrRateLimited) })
}

// message summarises errors for a condition: one line per error.
func message(err error) string {
	if err == nil {
		return ""
	}
	var lines []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			lines = append(lines, e.Error())
		}
	} else {
		lines = []string{err.Error()}
	}
	return strings.Join(lines, "\n")
}
