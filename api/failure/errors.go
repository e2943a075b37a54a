package failure

import (
	"errors"
	"fmt"
	"time"
)

// InvalidError is a ready-made ErrInvalid for code without a richer type of
// its own.
type InvalidError struct {
	// Author is whose mistake it is.
	Author Author
	// Field is the absolute path of the offending field; empty when no
	// single field is at fault.
	Field string
	// Message says what is wrong.
	Message string
	// Err is the cause, if any.
	Err error
}

// Invalid returns an *InvalidError by author for field with a formatted
// message.
func Invalid(author Author, field, format string, args ...any) *InvalidError {
	return &InvalidError{Author: author, Field: field, Message: fmt.Sprintf(format, args...)}
}

// Error returns "<field>: <message>[: <cause>]".
func (e *InvalidError) Error() string {
	msg := e.Message
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *InvalidError) Unwrap() error { return e.Err }

// Is reports ErrInvalid.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// Blame returns Author.
func (e *InvalidError) Blame() Author { return e.Author }

// FieldPath returns Field.
func (e *InvalidError) FieldPath() string { return e.Field }

// RequeueError says something is not ready yet: look again after After.
type RequeueError struct {
	// After is when to look again; zero leaves it to the caller.
	After time.Duration
	// Reason says what is awaited, for a condition message.
	Reason string
}

// RequeueAfter returns a *RequeueError waiting after with a formatted
// reason.
func RequeueAfter(after time.Duration, format string, args ...any) *RequeueError {
	return &RequeueError{After: after, Reason: fmt.Sprintf(format, args...)}
}

// Error returns the reason.
func (e *RequeueError) Error() string { return e.Reason }

// Is reports ErrRequeue.
func (e *RequeueError) Is(target error) bool { return target == ErrRequeue }

// RetryDelay returns After.
func (e *RequeueError) RetryDelay() time.Duration { return e.After }

// RateLimitError says the API server answered 429 Too Many Requests.
type RateLimitError struct {
	// RetryAfter is the server's Retry-After, or a default the classifier
	// chose when the server sent none.
	RetryAfter time.Duration
	// Err is the server's error; apierrors.IsTooManyRequests still sees it.
	Err error
}

// Error describes the rate limit and the server's error.
func (e *RateLimitError) Error() string {
	return fmt.Sprintf("rate-limited, retry after %s: %v", e.RetryAfter, e.Err)
}

// Unwrap returns the server's error.
func (e *RateLimitError) Unwrap() error { return e.Err }

// Is reports ErrRateLimited.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// RetryDelay returns RetryAfter.
func (e *RateLimitError) RetryDelay() time.Duration { return e.RetryAfter }

// RetriableError is a transient failure.
type RetriableError struct {
	// After is the suggested delay before the next try; zero leaves it to
	// the caller's backoff.
	After time.Duration
	// Err is the failure.
	Err error
}

// Retriable returns err as a *RetriableError retried after after; nil stays
// nil.
func Retriable(err error, after time.Duration) error {
	if err == nil {
		return nil
	}
	return &RetriableError{After: after, Err: err}
}

// Error returns the failure's message.
func (e *RetriableError) Error() string { return e.Err.Error() }

// Unwrap returns the failure.
func (e *RetriableError) Unwrap() error { return e.Err }

// Is reports ErrRetriable.
func (e *RetriableError) Is(target error) bool { return target == ErrRetriable }

// RetryDelay returns After.
func (e *RetriableError) RetryDelay() time.Duration { return e.After }

// Delayer is an error that carries a retry delay.
type Delayer interface {
	error
	// RetryDelay returns how long to wait before the next try; zero leaves
	// it to the caller.
	RetryDelay() time.Duration
}

// Delay returns the delay err's tree asks for: the longest delay of an
// ErrRateLimited error when there is one (every 429 must be waited out),
// otherwise the shortest non-zero delay of any other Delayer (the earliest
// moment something may have changed). It returns zero when no error in the
// tree carries a delay.
func Delay(err error) time.Duration {
	var limited, other time.Duration
	walk(err, func(e error) {
		d, ok := e.(Delayer) //nolint:errorlint // walk visits each error of the tree; this asks the one visited
		if !ok {
			return
		}
		v := d.RetryDelay()
		if v <= 0 {
			return
		}
		if errors.Is(e, ErrRateLimited) {
			limited = max(limited, v)
			return
		}
		if other == 0 || v < other {
			other = v
		}
	})
	if limited > 0 {
		return limited
	}
	return other
}

// walk calls fn for every error in err's tree, depth first.
func walk(err error, fn func(error)) {
	if err == nil {
		return
	}
	fn(err)
	switch u := err.(type) { //nolint:errorlint // this is the tree walk that errors.As would do
	case interface{ Unwrap() error }:
		walk(u.Unwrap(), fn)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			walk(e, fn)
		}
	}
}
