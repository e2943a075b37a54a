package failure

import (
	"errors"
	"time"
)

// Retry is when a failed pass should run again, as RetryOf reads it from
// every failure of an error tree.
type Retry struct {
	// Backoff is set when a failure asks for the caller's backoff: an
	// error of no class, or a transient one without a delay.
	Backoff bool
	// Wait is set when a failure asks to be looked at again later: a wait,
	// a rate limit or a transient failure with a delay.
	Wait bool
	// After is the delay that goes with Wait: the longest Retry-After when
	// the tree holds a rate limit (every 429 must be waited out), otherwise
	// the shortest delay any failure carries. Zero when none carries one.
	After time.Duration
}

// RetryOf reads when to retry a pass that failed with err from each of
// its failures, where ClassOf keeps only the most urgent one. A pass whose
// role group waits on a foreign object and whose other role group hit a
// server error must retry the server error soon: ClassOf says the pass
// waits, RetryOf says it also backs off.
//
// The failures are the errors of err's tree below its joins; one that
// declares a class (an error whose own Is reports a class value) is one
// failure, its causes included. Invalid input asks for nothing: it waits
// for its author. A rate limit anywhere makes the whole pass wait it out
// (Wait, no Backoff). RetryOf(nil) is the zero Retry.
func RetryOf(err error) Retry {
	var r Retry
	if err == nil {
		return r
	}
	if errors.Is(err, ErrRateLimited) {
		return Retry{Wait: true, After: Delay(err)}
	}
	failures(err, func(e error) {
		d := Delay(e)
		switch ClassOf(e) {
		case ClassInvalid:
			return
		case ClassRequeue:
			r.Wait = true
		case ClassRetriable:
			if d <= 0 {
				r.Backoff = true
				return
			}
			r.Wait = true
		default:
			r.Backoff = true
			return
		}
		if d > 0 && (r.After == 0 || d < r.After) {
			r.After = d
		}
	})
	return r
}

// failures calls fn for each failure of err's tree: the errors below its
// joins, descending through wrappers of no class of their own.
func failures(err error, fn func(error)) {
	if err == nil {
		return
	}
	if declaresClass(err) {
		fn(err)
		return
	}
	switch u := err.(type) { //nolint:errorlint // descends the tree one wrapper at a time, by design
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			failures(e, fn)
		}
		return
	case interface{ Unwrap() error }:
		if inner := u.Unwrap(); inner != nil {
			failures(inner, fn)
			return
		}
	}
	fn(err)
}

// declaresClass reports whether err itself, not its causes, is of a class.
func declaresClass(err error) bool {
	is, _ := err.(interface{ Is(error) bool })
	for _, c := range []error{ErrInvalid, ErrRequeue, ErrRateLimited, ErrRetriable} {
		if err == c || is != nil && is.Is(c) { //nolint:errorlint // err itself, not its causes
			return true
		}
	}
	return false
}

// Transient reports whether every failure of err's tree is transient
// (ErrRetriable or ErrRateLimited): nothing in it will last once the
// server answers again. A reconciler keeps the lasting cause it already
// reports (a wait, invalid input, an unclassified error) rather than
// replacing it with such an error, which the next pass is likely not to
// meet. Transient(nil) is false.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	transient := true
	failures(err, func(e error) {
		if c := ClassOf(e); c != ClassRetriable && c != ClassRateLimited {
			transient = false
		}
	})
	return transient
}
