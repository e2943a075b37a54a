package faults

import (
	"fmt"
	"slices"
	"time"
)

// Fault is an error the injector can answer a request with.
type Fault string

// Faults and the HTTP status each is answered with.
const (
	// Conflict is 409 Conflict; apierrors.IsConflict reports it.
	Conflict Fault = "Conflict"
	// TooManyRequests is 429; apierrors.IsTooManyRequests reports it.
	TooManyRequests Fault = "TooManyRequests"
	// InternalError is 500; apierrors.IsInternalError reports it.
	InternalError Fault = "InternalError"
	// ServiceUnavailable is 503; apierrors.IsServiceUnavailable reports it.
	ServiceUnavailable Fault = "ServiceUnavailable"
	// Timeout is 504 with reason Timeout; apierrors.IsTimeout reports it.
	Timeout Fault = "Timeout"
)

var knownFaults = []Fault{Conflict, InternalError, ServiceUnavailable, Timeout, TooManyRequests}

// Rule says which requests may fail and how.
type Rule struct {
	// Verbs the rule matches: get, list, watch, create, update, patch,
	// delete, deletecollection. Empty matches every verb.
	Verbs []string
	// Resources the rule matches, as "<resource>[.<group>][/<subresource>]":
	// "pods", "statefulsets.apps", "statefulsets.apps/scale". Empty matches
	// every resource.
	Resources []string
	// Fault is the error injected.
	Fault Fault
	// Rate is the probability, in (0, 1], that a matching request fails.
	Rate float64
	// RetryAfter is sent as Retry-After with TooManyRequests,
	// ServiceUnavailable and Timeout (rounded up to whole seconds). Zero omits
	// it. Note that client-go retries requests answered with a Retry-After
	// header, up to ten times, before a caller sees the error.
	RetryAfter time.Duration
}

func (r Rule) validate() error {
	if !slices.Contains(knownFaults, r.Fault) {
		return fmt.Errorf("rule fault %q: must be one of %v", r.Fault, knownFaults)
	}
	if r.Rate <= 0 || r.Rate > 1 {
		return fmt.Errorf("rule rate %v for %s: must be in (0, 1]", r.Rate, r.Fault)
	}
	if r.RetryAfter < 0 {
		return fmt.Errorf("rule retryAfter %v for %s: must not be negative", r.RetryAfter, r.Fault)
	}
	return nil
}

func (r Rule) matches(verb, resource string) bool {
	return (len(r.Verbs) == 0 || slices.Contains(r.Verbs, verb)) &&
		(len(r.Resources) == 0 || slices.Contains(r.Resources, resource))
}

func (r Rule) retryAfterSeconds() int {
	if r.RetryAfter <= 0 {
		return 0
	}
	return int((r.RetryAfter + time.Second - 1) / time.Second)
}
