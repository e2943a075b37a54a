package generators

import (
	"fmt"
	"math"
)

// Annotation suffixes the object engine reads, under
// "<Environment.ReconcilerName>/". They are the same strings as the
// constants of package github.com/opkit-dev/opkit/apply (AnnotationApplyOrder
// and the others), which this module does not import; a test of the
// generators/servertest module checks that they stay equal.
const (
	// SuffixApplyOrder is the object's apply wave.
	SuffixApplyOrder = "apply-order"
	// SuffixDeleteOrder is the object's delete wave.
	SuffixDeleteOrder = "delete-order"
	// SuffixPurgeOrder makes the object transient: it is deleted at the end
	// of this apply wave once ready.
	SuffixPurgeOrder = "purge-order"
	// SuffixReconcilePolicy says when an existing object is written again.
	SuffixReconcilePolicy = "reconcile-policy"
	// SuffixUpdatePolicy says how an existing object is written.
	SuffixUpdatePolicy = "update-policy"
	// SuffixDeletePolicy says whether the object is deleted.
	SuffixDeletePolicy = "delete-policy"
	// SuffixAdoptionPolicy says whether a live object may be taken over.
	SuffixAdoptionPolicy = "adoption-policy"
)

// Policy values the generators write, equal to the object engine's.
const (
	// ReconcilePolicyOnce creates the object and never updates it.
	ReconcilePolicyOnce = "once"
	// ReconcilePolicyOnObjectOrComponentChange writes the object again
	// whenever the component digest changes, even if the object did not.
	ReconcilePolicyOnObjectOrComponentChange = "on-object-or-component-change"
	// UpdatePolicyRecreate deletes the object and creates it again.
	UpdatePolicyRecreate = "recreate"
	// DeletePolicyOrphan leaves the object in the cluster when it leaves
	// the set or the component is deleted.
	DeletePolicyOrphan = "orphan"
)

// Bounds of apply, delete and purge orders.
const (
	MinOrder = math.MinInt16
	MaxOrder = math.MaxInt16
)

// AnnotationKey returns "<ReconcilerName>/<suffix>". Without a reconciler
// name it fails with a failure.ErrInvalid blamed on the operator's author:
// the caller did not say who applies the objects.
func (e Environment) AnnotationKey(suffix string) (string, error) {
	if e.ReconcilerName == "" {
		return "", &ConfigError{Field: "Environment.ReconcilerName",
			Err: fmt.Errorf("is empty, so the %q annotation has no prefix", suffix)}
	}
	return e.ReconcilerName + "/" + suffix, nil
}
