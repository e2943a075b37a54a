package shard

import (
	"fmt"

	"github.com/opkit-dev/opkit/api/failure"
)

// OptionsError reports Options that cannot work. It is of the invalid
// input class: the operator's author must change the options.
type OptionsError struct {
	// Err lists every wrong field.
	Err error
}

// Error implements error.
func (e *OptionsError) Error() string { return fmt.Sprintf("shard options: %v", e.Err) }

// Unwrap returns the list of wrong fields.
func (e *OptionsError) Unwrap() error { return e.Err }

// Is reports the invalid input class.
func (e *OptionsError) Is(target error) bool { return target == failure.ErrInvalid }

// LostError reports that a member's Lease was taken from it: the other
// members counted it as gone and may already reconcile its resources. The
// member stops working; its process should exit and start afresh, as a
// replica that lost its leader election does, so that it rejoins with
// empty caches.
type LostError struct {
	// Member is the member that lost its Lease.
	Member string
	// Reason says what the renewal found.
	Reason string
}

// Error implements error.
func (e *LostError) Error() string {
	return fmt.Sprintf("shard member %q lost its lease: %s", e.Member, e.Reason)
}
