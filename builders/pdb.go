package builders

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// DefaultMaxUnavailable is how many pods a PodDisruptionBudget lets go at
// once when the spec states no number.
const DefaultMaxUnavailable int32 = 1

// PodDisruptionBudget builds the PodDisruptionBudget of a role (scope with
// no RoleGroup; it spans every group and carries the role slot label) or,
// as an extra, of one role group (carrying the role-group slot label).
// It returns nil when spec disables it; a nil spec means enabled with
// maxUnavailable DefaultMaxUnavailable.
func PodDisruptionBudget(scope Scope, spec *commonsv1alpha1.PodDisruptionBudgetSpec) (*policyv1.PodDisruptionBudget, error) {
	maxUnavailable := DefaultMaxUnavailable
	if spec != nil {
		if spec.Enabled != nil && !*spec.Enabled {
			return nil, nil
		}
		if spec.MaxUnavailable != nil {
			maxUnavailable = *spec.MaxUnavailable
		}
	}
	if maxUnavailable < 0 {
		return nil, validationErrorf("roleConfig.podDisruptionBudget.maxUnavailable", "%d is negative", maxUnavailable)
	}
	meta := scope.objectMeta(scope.ResourceName())
	if scope.RoleGroup == "" {
		meta.Labels[commonsv1alpha1.LabelRolePodDisruptionBudget] = scope.Role
	} else {
		meta.Labels[commonsv1alpha1.LabelRoleGroupPodDisruptionBudget] = scope.RoleGroup
	}
	mu := intstr.FromInt32(maxUnavailable)
	pdb := &policyv1.PodDisruptionBudget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: meta,
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: &mu,
			Selector:       &metav1.LabelSelector{MatchLabels: scope.SelectorLabels()},
		},
	}
	return pdb, nil
}
