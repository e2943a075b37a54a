package orphan

import (
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// RateLimitError reports that the API server answered 429 Too Many
// Requests. The pass stopped at once; nothing it had done is lost, and the
// caller should back off rather than report the cluster degraded.
type RateLimitError struct {
	// Err is the API server's error.
	Err error
}

// Error implements error.
func (e *RateLimitError) Error() string {
	return fmt.Sprintf("orphan cleanup rate-limited by the API server: %v", e.Err)
}

// Unwrap returns the API server's error.
func (e *RateLimitError) Unwrap() error { return e.Err }

// IsRateLimitError reports whether err is or wraps a *RateLimitError.
func IsRateLimitError(err error) bool {
	var rl *RateLimitError
	return errors.As(err, &rl)
}

// classify turns a 429 into a *RateLimitError and leaves other errors be.
func classify(err error) error {
	if err != nil && apierrors.IsTooManyRequests(err) && !IsRateLimitError(err) {
		return &RateLimitError{Err: err}
	}
	return err
}
