package apierr

import (
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/opkit-dev/opkit/api/failure"
)

// DefaultRateLimitDelay is the back-off of a 429 whose response names no
// Retry-After.
const DefaultRateLimitDelay = time.Second

// Classify returns err with its class made explicit:
//
//   - 429 Too Many Requests becomes a *failure.RateLimitError carrying the
//     server's Retry-After (DefaultRateLimitDelay when it sent none);
//   - 409 Conflict, 500, 503, 504 and server or client timeouts become a
//     *failure.RetriableError carrying the server's suggested delay, if any;
//   - anything else, nil, and errors already classified are returned as
//     they are.
//
// The API server's error stays in the chain.
func Classify(err error) error {
	if err == nil || errors.Is(err, failure.ErrRateLimited) || errors.Is(err, failure.ErrRetriable) {
		return err
	}
	delay := time.Duration(0)
	if secs, ok := apierrors.SuggestsClientDelay(err); ok && secs > 0 {
		delay = time.Duration(secs) * time.Second
	}
	switch {
	case apierrors.IsTooManyRequests(err):
		if delay == 0 {
			delay = DefaultRateLimitDelay
		}
		return &failure.RateLimitError{RetryAfter: delay, Err: err}
	case apierrors.IsConflict(err), apierrors.IsInternalError(err), apierrors.IsServiceUnavailable(err),
		apierrors.IsServerTimeout(err), apierrors.IsTimeout(err), apierrors.IsUnexpectedServerError(err):
		return &failure.RetriableError{After: delay, Err: err}
	}
	return err
}
