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
	// WatchCut lets a watch request through and ends its stream after
	// Rule.CutAfter, as an API server ending a watch or a dropped
	// connection does: the watcher sees its result channel close and must
	// watch again from the last resource version it saw. Only watch
	// requests are cut; a WatchCut rule matches no other verb.
	WatchCut Fault = "WatchCut"
)

var knownFaults = []Fault{Conflict, InternalError, ServiceUnavailable, Timeout, TooManyRequests, WatchCut}

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
	// First is how many matching requests, counted from the first one the
	// rule is tried on, fail without a draw, so that a short run still
	// sees the fault whatever the seed. Requests an earlier rule already
	// answered do not count. Zero (the default) draws for every request.
	First int
	// RetryAfter is sent as Retry-After with TooManyRequests,
	// ServiceUnavailable and Timeout (rounded up to whole seconds). Zero omits
	// it. Note that client-go retries requests answered with a Retry-After
	// header, up to ten times, before a caller sees the error.
	RetryAfter time.Duration
	// CutAfter is how long a watch cut by a WatchCut rule streams before it
	// ends. Each cut draws its duration from the seed, uniformly in
	// [CutAfter/2, 3·CutAfter/2), so watches started together do not all
	// end together. Required with WatchCut, ignored otherwise.
	CutAfter time.Duration
}

func (r Rule) validate() error {
	if !slices.Contains(knownFaults, r.Fault) {
		return fmt.Errorf("rule fault %q: must be one of %v", r.Fault, knownFaults)
	}
	if r.Rate <= 0 || r.Rate > 1 {
		return fmt.Errorf("rule rate %v for %s: must be in (0, 1]", r.Rate, r.Fault)
	}
	if r.First < 0 {
		return fmt.Errorf("rule first %d for %s: must not be negative", r.First, r.Fault)
	}
	if r.RetryAfter < 0 {
		return fmt.Errorf("rule retryAfter %v for %s: must not be negative", r.RetryAfter, r.Fault)
	}
	if r.Fault == WatchCut && r.CutAfter <= 0 {
		return fmt.Errorf("rule cutAfter %v for %s: must be positive", r.CutAfter, r.Fault)
	}
	return nil
}

func (r Rule) matches(verb, resource string) bool {
	if r.Fault == WatchCut && verb != "watch" {
		return false
	}
	return (len(r.Verbs) == 0 || slices.Contains(r.Verbs, verb)) &&
		(len(r.Resources) == 0 || slices.Contains(r.Resources, resource))
}

// drawCut draws a cut's duration in [CutAfter/2, 3·CutAfter/2) from u,
// a uniform draw in [0, 1).
func (r Rule) drawCut(u float64) time.Duration {
	return r.CutAfter/2 + time.Duration(u*float64(r.CutAfter))
}

func (r Rule) retryAfterSeconds() int {
	if r.RetryAfter <= 0 {
		return 0
	}
	return int((r.RetryAfter + time.Second - 1) / time.Second)
}
