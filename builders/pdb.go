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

// PodDisruptionBudgetBuilder builds the PodDisruptionBudget of a role or of
// one role group. Create it with NewPodDisruptionBudget.
type PodDisruptionBudgetBuilder struct {
	scope Scope
	spec  *commonsv1alpha1.PodDisruptionBudgetSpec
}

// NewPodDisruptionBudget starts the PodDisruptionBudget of scope's role
// (scope without a role group: it spans every group of the role, carries
// the role slot label, and spec is the user's
// spec.roles.<role>.roleConfig.podDisruptionBudget) or, as an extra the
// product declares, of one role group (carrying the role-group slot label).
// A nil spec means enabled with maxUnavailable DefaultMaxUnavailable.
func NewPodDisruptionBudget(scope Scope, spec *commonsv1alpha1.PodDisruptionBudgetSpec) *PodDisruptionBudgetBuilder {
	return &PodDisruptionBudgetBuilder{scope: scope, spec: spec.DeepCopy()}
}

// Enabled reports whether the spec asks for the budget. A disabled budget
// is one to remove: Build still returns it, so a caller can name what to
// delete.
func (b *PodDisruptionBudgetBuilder) Enabled() bool {
	return b.spec == nil || b.spec.Enabled == nil || *b.spec.Enabled
}

// Build returns the PodDisruptionBudget, or a *ValidationError for a
// negative maxUnavailable: the user's roleConfig field for a role, the
// product's declaration for a role group.
func (b *PodDisruptionBudgetBuilder) Build() (*policyv1.PodDisruptionBudget, error) {
	maxUnavailable := DefaultMaxUnavailable
	if b.spec != nil && b.spec.MaxUnavailable != nil {
		maxUnavailable = *b.spec.MaxUnavailable
	}
	if maxUnavailable < 0 {
		if b.scope.RoleGroup == "" {
			return nil, layerError(b.scope, commonsv1alpha1.LayerRole, "roleConfig.podDisruptionBudget.maxUnavailable",
				"%d is negative", maxUnavailable)
		}
		return nil, layerError(b.scope.RoleScope(), commonsv1alpha1.LayerDeclaration, "podDisruptionBudget.maxUnavailable",
			"%d is negative", maxUnavailable)
	}
	meta := b.scope.objectMeta(b.scope.ResourceName())
	if b.scope.RoleGroup == "" {
		meta.Labels[commonsv1alpha1.LabelRolePodDisruptionBudget] = b.scope.Role
	} else {
		meta.Labels[commonsv1alpha1.LabelRoleGroupPodDisruptionBudget] = b.scope.RoleGroup
	}
	mu := intstr.FromInt32(maxUnavailable)
	return &policyv1.PodDisruptionBudget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: meta,
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: &mu,
			Selector:       &metav1.LabelSelector{MatchLabels: b.scope.SelectorLabels()},
		},
	}, nil
}
