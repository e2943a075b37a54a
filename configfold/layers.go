package configfold

import (
	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// Layers holds one role group's values of a setting, one per layer, with the
// names that place each value in the cluster resource. The fold order is
// fixed and lowest precedence first: Declaration, then Role, then
// RoleGroup; a later layer wins. Naming each layer, rather than passing them
// by position, leaves nothing to put in the wrong order.
//
// The zero value states nothing. Any layer may be nil (not stated).
type Layers[T any] struct {
	// RoleName is the role's name. It makes the field paths of errors and
	// reports absolute (spec.roles.<RoleName>...); FoldCommon and
	// MergeOverrides require it whenever a layer is set.
	RoleName string
	// RoleGroupName is the role group's name
	// (spec.roles.<RoleName>.roleGroups.<RoleGroupName>...); FoldCommon and
	// MergeOverrides require it whenever RoleGroup is set.
	RoleGroupName string

	// Declaration is what the operator declares for the role
	// (commonsv1alpha1.LayerDeclaration): its config defaults, or the
	// overrides the product contributes. The lowest layer.
	Declaration *T
	// Role is the role's block of the cluster resource
	// (commonsv1alpha1.LayerRole, spec.roles.<role>).
	Role *T
	// RoleGroup is the role group's block of the cluster resource
	// (commonsv1alpha1.LayerRoleGroup, spec.roles.<role>.roleGroups.<group>).
	// The highest layer.
	RoleGroup *T
}

// layer is one stated or unstated layer, in fold order.
type layer[T any] struct {
	at   location
	spec *T
}

// ordered returns the layers lowest precedence first, each with its
// location.
func (l Layers[T]) ordered() []layer[T] {
	return []layer[T]{
		{l.location(commonsv1alpha1.LayerDeclaration), l.Declaration},
		{l.location(commonsv1alpha1.LayerRole), l.Role},
		{l.location(commonsv1alpha1.LayerRoleGroup), l.RoleGroup},
	}
}

func (l Layers[T]) location(layer commonsv1alpha1.Layer) location {
	return location{Layer: layer, RoleName: l.RoleName, RoleGroupName: l.RoleGroupName}
}

// checkNames refuses layers whose values could not be placed: an error path
// with an empty role or group name points at nothing the user can find.
// It is the operator's mistake, so it is blamed on the operator.
func (l Layers[T]) checkNames() error {
	stated := l.Declaration != nil || l.Role != nil || l.RoleGroup != nil
	switch {
	case stated && l.RoleName == "":
		return failure.Invalid(failure.AuthorOperator, "configfold.Layers.RoleName",
			"the role name is required to name the fields of the layers")
	case l.RoleGroup != nil && l.RoleGroupName == "":
		return failure.Invalid(failure.AuthorOperator, "configfold.Layers.RoleGroupName",
			"the role group name is required when the RoleGroup layer is set")
	}
	return nil
}

// location says where a layer's value sits in the cluster resource (or in
// the operator's declaration).
type location struct {
	Layer         commonsv1alpha1.Layer
	RoleName      string
	RoleGroupName string
}

// path returns the absolute path of field, relative to the layer.
func (at location) path(field string) string {
	return at.Layer.FieldPath(at.RoleName, at.RoleGroupName, field)
}
