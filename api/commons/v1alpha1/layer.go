package v1alpha1

import (
	"strings"

	"github.com/opkit-dev/opkit/api/failure"
)

// Layer names where a setting comes from. Every opkit function that folds
// layers takes them lowest precedence first, in the order of the constants
// below, and names them with this vocabulary in its reports.
type Layer string

// The layers, lowest precedence first. The first two are written by the
// operator's author, the last three by the cluster resource's author.
const (
	// LayerDefaults is the operator's own defaults (its options), the same
	// for every cluster.
	LayerDefaults Layer = "defaults"
	// LayerDeclaration is what the product declares for a role (its role
	// catalog), per cluster resource.
	LayerDeclaration Layer = "declaration"
	// LayerCluster is the cluster-wide part of the cluster resource's spec
	// (spec.image, for instance).
	LayerCluster Layer = "cluster"
	// LayerRole is a role's block in the spec (spec.roles.<role>).
	LayerRole Layer = "role"
	// LayerRoleGroup is a role group's block in the spec
	// (spec.roles.<role>.roleGroups.<group>).
	LayerRoleGroup Layer = "roleGroup"
)

// Layers returns every layer, lowest precedence first.
func Layers() []Layer {
	return []Layer{LayerDefaults, LayerDeclaration, LayerCluster, LayerRole, LayerRoleGroup}
}

// Author returns whose layer it is: failure.AuthorOperator for the defaults
// and the declaration, failure.AuthorUser for the spec's layers.
func (l Layer) Author() failure.Author {
	switch l {
	case LayerDefaults, LayerDeclaration:
		return failure.AuthorOperator
	case LayerCluster, LayerRole, LayerRoleGroup:
		return failure.AuthorUser
	default:
		return failure.AuthorUnknown
	}
}

// FieldPath returns the absolute path of field (a dotted path relative to
// the layer, such as "config.affinity"; empty for the layer itself) as its
// author knows it:
//
//	LayerRoleGroup  spec.roles.<role>.roleGroups.<group>.<field>
//	LayerRole       spec.roles.<role>.<field>
//	LayerCluster    spec.<field>
//	LayerDeclaration roles[<role>].<field>   (the role catalog)
//	LayerDefaults   defaults.<field>         (the operator's options)
//
// role and group are ignored where the layer has none.
func (l Layer) FieldPath(role, group, field string) string {
	var prefix string
	switch l {
	case LayerRoleGroup:
		prefix = "spec.roles." + role + ".roleGroups." + group
	case LayerRole:
		prefix = "spec.roles." + role
	case LayerCluster:
		prefix = "spec"
	case LayerDeclaration:
		prefix = "roles[" + role + "]"
	case LayerDefaults:
		prefix = "defaults"
	default:
		return field
	}
	if field == "" {
		return prefix
	}
	if strings.HasPrefix(field, "[") {
		return prefix + field
	}
	return prefix + "." + field
}
