package servertest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/generators"
)

// The generators write annotations the object engine reads; they
// cannot import it, so their names and values are checked here.
func TestAnnotationsMatchTheObjectReconciler(t *testing.T) {
	got := []string{
		generators.SuffixApplyOrder, generators.SuffixDeleteOrder, generators.SuffixPurgeOrder,
		generators.SuffixReconcilePolicy, generators.SuffixUpdatePolicy, generators.SuffixDeletePolicy,
		generators.SuffixAdoptionPolicy,
		generators.ReconcilePolicyOnce, generators.ReconcilePolicyOnObjectOrComponentChange,
		generators.UpdatePolicyRecreate, generators.DeletePolicyOrphan,
	}
	want := []string{
		apply.AnnotationApplyOrder, apply.AnnotationDeleteOrder, apply.AnnotationPurgeOrder,
		apply.AnnotationReconcilePolicy, apply.AnnotationUpdatePolicy, apply.AnnotationDeletePolicy,
		apply.AnnotationAdoptionPolicy,
		string(apply.ReconcilePolicyOnce), string(apply.ReconcilePolicyOnObjectOrComponentChange),
		string(apply.UpdatePolicyRecreate), string(apply.DeletePolicyOrphan),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("generators (+) and apply (-) disagree:\n%s", diff)
	}
	if generators.MinOrder != apply.MinOrder || generators.MaxOrder != apply.MaxOrder {
		t.Errorf("order bounds [%d, %d], apply's [%d, %d]", generators.MinOrder, generators.MaxOrder, apply.MinOrder, apply.MaxOrder)
	}
}
