package sidecar

import (
	"fmt"
	"strings"
	"time"

	"github.com/opkit-dev/opkit/api/failure"
)

// RegistrationError reports a provider that cannot be registered or
// planned, or a name that no registered provider has. It is the operator's
// mistake: class failure.ErrInvalid, blamed on the operator.
type RegistrationError struct {
	// Provider is the provider's name.
	Provider string
	// Message says what is wrong.
	Message string
}

// Error implements error.
func (e *RegistrationError) Error() string {
	return fmt.Sprintf("sidecar provider %q: %s", e.Provider, e.Message)
}

// Is reports the class failure.ErrInvalid.
func (e *RegistrationError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorOperator.
func (e *RegistrationError) Blame() failure.Author { return failure.AuthorOperator }

// FieldPath returns "sidecars[<provider>]".
func (e *RegistrationError) FieldPath() string { return "sidecars[" + e.Provider + "]" }

// InjectError reports a provider that failed to inject; the pod spec given
// to Plan.Inject is left unchanged. Injection runs before the user's pod
// overrides, so a failure is the operator's (its providers or its pod do
// not fit together): class failure.ErrInvalid, blamed on the operator
// unless the cause says otherwise.
type InjectError struct {
	// Provider is the provider's name.
	Provider string
	// Err is the cause.
	Err error
}

// Error implements error.
func (e *InjectError) Error() string {
	return fmt.Sprintf("inject sidecar %q: %v", e.Provider, e.Err)
}

// Unwrap returns the cause.
func (e *InjectError) Unwrap() error { return e.Err }

// Is reports the class failure.ErrInvalid.
func (e *InjectError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns the cause's author when it names one, else
// failure.AuthorOperator.
func (e *InjectError) Blame() failure.Author {
	if a := failure.AuthorOf(e.Err); a != failure.AuthorUnknown {
		return a
	}
	return failure.AuthorOperator
}

// FieldPath returns the cause's field when it names one, else
// "sidecars[<provider>]".
func (e *InjectError) FieldPath() string {
	if f := failure.FieldOf(e.Err); f != "" {
		return f
	}
	return "sidecars[" + e.Provider + "]"
}

// ConflictError reports an addition that collides with something already in
// the pod spec: two containers or two volumes of one name, two ports of one
// name or number in a container, a mount path used twice in a container, or
// an environment variable that cannot be extended. Class failure.ErrInvalid,
// blamed on the operator.
type ConflictError struct {
	// Kind is what collides: "container", "volume", "port", "volumeMount"
	// or "env".
	Kind string
	// Name is the colliding name.
	Name string
	// Container is the container concerned, for ports, mounts and env.
	Container string
}

// Error implements error.
func (e *ConflictError) Error() string {
	if e.Container != "" {
		return fmt.Sprintf("%s %q of container %q already exists", e.Kind, e.Name, e.Container)
	}
	return fmt.Sprintf("%s %q already exists in the pod", e.Kind, e.Name)
}

// Is reports the class failure.ErrInvalid.
func (e *ConflictError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorOperator.
func (e *ConflictError) Blame() failure.Author { return failure.AuthorOperator }

// MissingObjectError reports a required object that does not exist, or
// lacks keys. Its class follows who named the object; see
// Requirement.Check.
type MissingObjectError struct {
	// Requirement is what was required.
	Requirement Requirement
	// Keys are the missing keys; empty when the whole object is missing.
	Keys []string
}

// Error says what is missing, for whom, after the user's field when a user
// named the object.
func (e *MissingObjectError) Error() string {
	r := e.Requirement
	var b strings.Builder
	if r.Field != "" {
		b.WriteString(r.Field + ": ")
	}
	fmt.Fprintf(&b, "sidecar %q needs %s %s/%s", r.Provider, r.Kind, r.Namespace, r.Name)
	if len(e.Keys) == 0 {
		b.WriteString(", which does not exist")
		return b.String()
	}
	quoted := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		quoted[i] = fmt.Sprintf("%q", k)
	}
	fmt.Fprintf(&b, " to hold %s", strings.Join(quoted, ", "))
	return b.String()
}

// waiting reports whether the error is a wait for an object the framework
// applies itself.
func (e *MissingObjectError) waiting() bool {
	return len(e.Keys) == 0 && e.Requirement.NamedBy != failure.AuthorUser
}

// Is reports failure.ErrRequeue for an absent object the framework or the
// operator named, failure.ErrInvalid otherwise.
func (e *MissingObjectError) Is(target error) bool {
	if e.waiting() {
		return target == failure.ErrRequeue
	}
	return target == failure.ErrInvalid
}

// Blame returns failure.AuthorUser when a user named the object, else
// failure.AuthorOperator.
func (e *MissingObjectError) Blame() failure.Author {
	if e.Requirement.NamedBy == failure.AuthorUser {
		return failure.AuthorUser
	}
	return failure.AuthorOperator
}

// FieldPath returns the field that named the object, or
// "sidecars[<provider>]" when the framework or the operator did.
func (e *MissingObjectError) FieldPath() string {
	if e.Requirement.Field != "" {
		return e.Requirement.Field
	}
	return "sidecars[" + e.Requirement.Provider + "]"
}

// RetryDelay returns MissingObjectRequeueDelay for a wait, else zero.
func (e *MissingObjectError) RetryDelay() time.Duration {
	if e.waiting() {
		return MissingObjectRequeueDelay
	}
	return 0
}
