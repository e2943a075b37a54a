package configfold

import (
	"maps"
	"slices"
	"strings"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// MergedOverrides is the result of merging the override layers of one role
// group: what the product contributes, beneath the role's, beneath the role
// group's. It shares no memory with its inputs.
type MergedOverrides struct {
	// ConfigOverrides maps a config file to keys and values, merged per file
	// and per key. Nil when no layer states any.
	ConfigOverrides map[string]map[string]string
	// EnvOverrides maps an environment variable to its value, merged per
	// variable. Nil when no layer states any.
	EnvOverrides map[string]string
	// CliOverrides are the extra command-line arguments of the last layer
	// that states them (a non-nil list, so [] clears the ones beneath).
	CliOverrides []string
	// PodOverrides are the pod template patches that decoded, lowest layer
	// first; apply them in this order so the role group's wins.
	PodOverrides []PodOverrideLayer
	// IgnoredPodOverrides are the pod-override layers left out of
	// PodOverrides because they do not decode, lowest layer first. The rest
	// of the merge is still produced; the caller reports each one (a
	// PodOverrideIgnored Warning event with its String), since nothing else
	// would show the override was not applied.
	IgnoredPodOverrides []IgnoredPodOverride
}

// PodOverrideLayer is one layer's pod template patch.
type PodOverrideLayer struct {
	// Layer is where the patch was written.
	Layer v1alpha1.Layer
	// Patch is the patch as written (JSON), strategic-merge directives
	// included. Apply this one with strategic merge patch: a typed value
	// re-encoded would lose the directives and carry zero values (such as
	// "containers": null) that the user never wrote.
	Patch []byte
}

// IgnoredPodOverride is a pod-override layer that did not decode and was
// left out.
type IgnoredPodOverride struct {
	// Layer is where the patch was written.
	Layer v1alpha1.Layer
	// FieldPath is the absolute path of the layer's podOverrides, such as
	// "spec.roles.server.roleGroups.default.podOverrides".
	FieldPath string
	// Errors are the problems found, each a *FieldError naming the field by
	// its absolute path, in the order they occur.
	Errors []*FieldError
}

// String says which layer was ignored and why, for the Warning event's
// message.
func (i IgnoredPodOverride) String() string {
	msgs := make([]string, len(i.Errors))
	for n, e := range i.Errors {
		msgs[n] = e.Error()
	}
	return i.FieldPath + " is not applied: " + strings.Join(msgs, "; ")
}

// PodOverridePatches returns the patches of PodOverrides, lowest layer
// first, ready for a strategic-merge applier taking them in that order.
func (m MergedOverrides) PodOverridePatches() [][]byte {
	patches := make([][]byte, len(m.PodOverrides))
	for i, l := range m.PodOverrides {
		patches[i] = l.Patch
	}
	return patches
}

// MergeOverrides merges the overrides of one role group over its layers;
// any may be nil, and in.RoleName (and in.RoleGroupName when the RoleGroup
// layer is set) must name the role group. Config overrides merge per file
// and per key, environment overrides per variable, command-line overrides
// are replaced by the last layer that states them, and pod overrides stay
// separate layers in order.
//
// A pod override is decoded strictly, like affinity: a field the pod
// template does not have (such as "containres") fails its layer rather than
// being dropped on the quiet, because a patch applied without the part the
// user mistyped gives a pod that is neither what they had nor what they
// asked for. The directives strategic merge patch defines are accepted
// ($patch with replace, merge or delete; $retainKeys; $setElementOrder/<list>;
// $deleteFromPrimitiveList/<list>), and the fields they name must exist. A
// layer that fails is recorded in IgnoredPodOverrides; the other layers and
// the rest of the merge still apply.
//
// The only error is a *failure.InvalidError blamed on the operator, for
// missing names.
func MergeOverrides(in Layers[v1alpha1.OverridesSpec]) (MergedOverrides, error) {
	if err := in.checkNames(); err != nil {
		return MergedOverrides{}, err
	}
	var out MergedOverrides
	for _, l := range in.ordered() {
		if l.spec == nil {
			continue
		}
		for file, kv := range l.spec.ConfigOverrides {
			if out.ConfigOverrides == nil {
				out.ConfigOverrides = map[string]map[string]string{}
			}
			merged := out.ConfigOverrides[file]
			if merged == nil {
				merged = make(map[string]string, len(kv))
			}
			maps.Copy(merged, kv)
			out.ConfigOverrides[file] = merged
		}
		for k, v := range l.spec.EnvOverrides {
			if out.EnvOverrides == nil {
				out.EnvOverrides = map[string]string{}
			}
			out.EnvOverrides[k] = v
		}
		if l.spec.CliOverrides != nil {
			out.CliOverrides = slices.Clone(l.spec.CliOverrides)
		}
		patch, errs := decodePodOverride(l.spec, l.at)
		switch {
		case len(errs) > 0:
			out.IgnoredPodOverrides = append(out.IgnoredPodOverrides, IgnoredPodOverride{
				Layer: l.at.Layer, FieldPath: l.at.path("podOverrides"), Errors: errs,
			})
		case patch != nil:
			out.PodOverrides = append(out.PodOverrides, PodOverrideLayer{Layer: l.at.Layer, Patch: patch})
		}
	}
	return out, nil
}
