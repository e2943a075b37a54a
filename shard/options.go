package shard

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/clock"
)

// DefaultLeaseDuration is how long a member's Lease holds after its last
// renewal when Options.LeaseDuration is zero; the same as controller-runtime's
// leader election.
const DefaultLeaseDuration = 15 * time.Second

// Options configures a Member. The zero value of every optional field is a
// documented default; Ring, Member, Namespace and Resources are required.
type Options struct {
	// Ring names the set of replicas that share the work, usually the
	// operator's name. It completes the shard and drain label keys, so it
	// must be a valid label name (at most 63 characters). Required.
	Ring string
	// Member is this replica's name, unique within the ring, usually its
	// pod's name. It names the replica's Lease and is the value of the
	// shard label on everything the replica owns. Required.
	Member string
	// Namespace holds the members' Leases. Required.
	Namespace string
	// Resources are the kinds the operator reconciles: the resources that
	// are assigned to members. Objects a resource manages follow it by
	// carrying its owner's label and are not listed here. Required.
	Resources []schema.GroupVersionKind
	// Namespaces restricts the resources assigned to those in these
	// namespaces. Empty: every namespace (and cluster-scoped resources).
	Namespaces []string

	// LeaseDuration is how long a member counts as live after its last
	// renewal. Zero: DefaultLeaseDuration.
	LeaseDuration time.Duration
	// RenewInterval is how often the member renews its Lease and reviews
	// the assignments. Zero: a third of LeaseDuration. It must be shorter
	// than LeaseDuration.
	RenewInterval time.Duration
	// ExpiryMargin is how long past a member's lease duration the others
	// wait, without seeing it renewed, before they count it as gone and
	// take its resources. It covers a pass that started just before the
	// member's own lease lapsed and a slow clock. Zero: LeaseDuration.
	ExpiryMargin time.Duration
	// VirtualNodes is how many points each member has on the ring. Zero:
	// DefaultVirtualNodes. Every member of a ring must use the same value.
	VirtualNodes int
	// Clock drives renewals and expiry. Nil: the real clock.
	Clock clock.WithTicker
}

// withDefaults returns the options with every zero optional field set, or
// an *OptionsError naming each field that is wrong.
func (o Options) withDefaults() (Options, error) {
	if o.LeaseDuration == 0 {
		o.LeaseDuration = DefaultLeaseDuration
	}
	if o.RenewInterval == 0 {
		o.RenewInterval = o.LeaseDuration / 3
	}
	if o.ExpiryMargin == 0 {
		o.ExpiryMargin = o.LeaseDuration
	}
	if o.VirtualNodes == 0 {
		o.VirtualNodes = DefaultVirtualNodes
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	var errs []error
	for _, msg := range validation.IsDNS1123Label(o.Ring) {
		errs = append(errs, fmt.Errorf("Ring %q: %s", o.Ring, msg))
	}
	// The member names a Lease and is a label value: both rules apply.
	for _, msg := range append(validation.IsDNS1123Subdomain(o.Member), validation.IsValidLabelValue(o.Member)...) {
		errs = append(errs, fmt.Errorf("Member %q: %s", o.Member, msg))
	}
	if o.Namespace == "" {
		errs = append(errs, errors.New("Namespace is required"))
	}
	if len(o.Resources) == 0 {
		errs = append(errs, errors.New("Resources lists no kind"))
	}
	if o.LeaseDuration < 0 || o.RenewInterval <= 0 || o.RenewInterval >= o.LeaseDuration {
		errs = append(errs, fmt.Errorf("RenewInterval %s must be positive and shorter than LeaseDuration %s", o.RenewInterval, o.LeaseDuration))
	}
	if o.ExpiryMargin < 0 || o.VirtualNodes < 0 {
		errs = append(errs, errors.New("ExpiryMargin and VirtualNodes must not be negative"))
	}
	if len(errs) > 0 {
		return o, &OptionsError{Err: errors.Join(errs...)}
	}
	return o, nil
}
