package failure_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/api/failure"
)

func TestRetryOf(t *testing.T) {
	invalid := failure.Invalid(failure.AuthorUser, "spec.roles.server", "unknown role")
	wait := func(d time.Duration) error { return failure.RequeueAfter(d, "foreign object") }
	transient := func(d time.Duration) error { return failure.Retriable(errors.New("500"), d) }
	limited := func(d time.Duration) error { return &failure.RateLimitError{RetryAfter: d, Err: errors.New("429")} }
	group := func(name string, err error) error { return fmt.Errorf("role group %s: %w", name, err) }
	tests := []struct {
		name string
		err  error
		want failure.Retry
	}{
		{"nil", nil, failure.Retry{}},
		{"invalid input waits for its author", invalid, failure.Retry{}},
		{"unclassified backs off", errors.New("boom"), failure.Retry{Backoff: true}},
		{"transient without delay backs off", transient(0), failure.Retry{Backoff: true}},
		{"transient with delay waits", transient(3 * time.Second), failure.Retry{Wait: true, After: 3 * time.Second}},
		{"wait", wait(30 * time.Second), failure.Retry{Wait: true, After: 30 * time.Second}},
		{"wait without delay", failure.RequeueAfter(0, "soon"), failure.Retry{Wait: true}},
		{
			"a server error beside a wait backs off",
			errors.Join(group("gateway/default", wait(30*time.Second)), group("server/default", transient(0))),
			failure.Retry{Backoff: true, Wait: true, After: 30 * time.Second},
		},
		{
			"a server error beside invalid input backs off",
			fmt.Errorf("pass: %w", errors.Join(group("a", invalid), group("b", transient(0)))),
			failure.Retry{Backoff: true},
		},
		{
			"an unclassified error beside invalid input backs off",
			errors.Join(invalid, errors.New("boom")),
			failure.Retry{Backoff: true},
		},
		{
			"the shortest delay of the waits",
			errors.Join(wait(30*time.Second), transient(2*time.Second), invalid),
			failure.Retry{Wait: true, After: 2 * time.Second},
		},
		{
			"a rate limit makes everything wait the longest Retry-After",
			errors.Join(transient(0), limited(time.Second), group("x", limited(4*time.Second)), errors.New("boom")),
			failure.Retry{Wait: true, After: 4 * time.Second},
		},
		{
			"a classed error is one failure with its cause",
			failure.Retriable(errors.Join(errors.New("a"), errors.New("b")), time.Second),
			failure.Retry{Wait: true, After: time.Second},
		},
		{
			"a module type declaring invalid input",
			errors.Join(&classError{class: failure.ErrInvalid}, &classError{class: failure.ErrRequeue}),
			failure.Retry{Wait: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, failure.RetryOf(tt.err)); diff != "" {
				t.Errorf("RetryOf (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTransient(t *testing.T) {
	transient := failure.Retriable(errors.New("500"), 0)
	limited := &failure.RateLimitError{RetryAfter: time.Second, Err: errors.New("429")}
	wait := failure.RequeueAfter(time.Minute, "foreign object")
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"a server error", fmt.Errorf("role group a: %w", transient), true},
		{"server errors and a rate limit", errors.Join(transient, fmt.Errorf("b: %w", limited)), true},
		{"a server error beside a wait", errors.Join(transient, wait), false},
		{"a server error beside an unclassified error", errors.Join(transient, errors.New("boom")), false},
		{"invalid input", failure.Invalid(failure.AuthorUser, "spec.x", "bad"), false},
		{"unclassified", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failure.Transient(tt.err); got != tt.want {
				t.Errorf("Transient(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
