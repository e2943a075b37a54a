package failure_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
)

// classError joins a class through Is, as a module's rich type does.
type classError struct{ class error }

func (e *classError) Error() string        { return "module error" }
func (e *classError) Is(target error) bool { return target == e.class }

func TestClassOf(t *testing.T) {
	invalid := failure.Invalid(failure.AuthorUser, "spec.roles.x", "no such role")
	limited := &failure.RateLimitError{RetryAfter: 3 * time.Second, Err: errors.New("429")}
	wait := failure.RequeueAfter(5*time.Second, "ConfigMap cm not found")
	transient := failure.Retriable(errors.New("503"), time.Second)
	tests := []struct {
		name string
		err  error
		want failure.Class
	}{
		{"nil", nil, failure.ClassOther},
		{"plain", errors.New("boom"), failure.ClassOther},
		{"invalid", invalid, failure.ClassInvalid},
		{"wrapped invalid", fmt.Errorf("role server: %w", invalid), failure.ClassInvalid},
		{"module type", &classError{class: failure.ErrInvalid}, failure.ClassInvalid},
		{"sentinel itself", fmt.Errorf("x: %w", failure.ErrRequeue), failure.ClassRequeue},
		{"rate limited", limited, failure.ClassRateLimited},
		{"requeue", wait, failure.ClassRequeue},
		{"retriable", transient, failure.ClassRetriable},
		{"rate limit outranks invalid", errors.Join(invalid, fmt.Errorf("group b: %w", limited)), failure.ClassRateLimited},
		{"invalid outranks requeue", errors.Join(wait, invalid), failure.ClassInvalid},
		{"requeue outranks retriable", errors.Join(transient, wait), failure.ClassRequeue},
		{"retriable outranks other", errors.Join(errors.New("x"), transient), failure.ClassRetriable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failure.ClassOf(tt.err); got != tt.want {
				t.Errorf("ClassOf = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestClassString(t *testing.T) {
	var got []string
	for _, c := range failure.Classes() {
		got = append(got, c.String())
	}
	want := []string{"other", "retriable", "requeue", "invalid", "rate_limited"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("class names (-want +got):\n%s", diff)
	}
}

func TestDelay(t *testing.T) {
	limited := func(d time.Duration) error { return &failure.RateLimitError{RetryAfter: d, Err: errors.New("429")} }
	tests := []struct {
		name string
		err  error
		want time.Duration
	}{
		{"nil", nil, 0},
		{"no delay", errors.New("x"), 0},
		{"requeue", failure.RequeueAfter(7*time.Second, "wait"), 7 * time.Second},
		{"retriable without delay", failure.Retriable(errors.New("x"), 0), 0},
		{"shortest wait wins", errors.Join(failure.RequeueAfter(9*time.Second, "a"), fmt.Errorf("b: %w", failure.RequeueAfter(2*time.Second, "b"))), 2 * time.Second},
		{"longest rate limit wins", errors.Join(limited(time.Second), limited(4*time.Second)), 4 * time.Second},
		{"rate limit beats a shorter wait", errors.Join(failure.RequeueAfter(time.Second, "a"), limited(3*time.Second)), 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failure.Delay(tt.err); got != tt.want {
				t.Errorf("Delay = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAuthorAndField(t *testing.T) {
	err := fmt.Errorf("role group server/default: %w",
		failure.Invalid(failure.AuthorUser, "spec.roles.server.roleGroups.default.config.affinity", "unknown field %q", "nodeAffinty"))
	if got := failure.AuthorOf(err); got != failure.AuthorUser {
		t.Errorf("AuthorOf = %v, want user", got)
	}
	if got, want := failure.FieldOf(err), "spec.roles.server.roleGroups.default.config.affinity"; got != want {
		t.Errorf("FieldOf = %q, want %q", got, want)
	}
	if got, want := err.Error(), `role group server/default: spec.roles.server.roleGroups.default.config.affinity: unknown field "nodeAffinty"`; got != want {
		t.Errorf("Error = %q, want %q", got, want)
	}
	if failure.AuthorOf(errors.New("x")) != failure.AuthorUnknown || failure.FieldOf(errors.New("x")) != "" {
		t.Error("an unclassified error names no author and no field")
	}
}

func TestRetriableNil(t *testing.T) {
	if failure.Retriable(nil, time.Second) != nil {
		t.Error("Retriable(nil) must stay nil")
	}
}
