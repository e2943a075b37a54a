package configfold

import (
	"errors"
	"maps"
	"slices"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
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
	// PodOverrideErrors holds, for every layer whose pod override did not
	// decode, a *FieldError naming the layer and the field. Such a layer is
	// left out of PodOverrides; report it to the user (a Warning event), as
	// nothing else would show the override was not applied.
	PodOverrideErrors []error
}

// PodOverrideLayer is one layer's pod template patch.
type PodOverrideLayer struct {
	// Layer is where the patch was written.
	Layer Layer
	// Patch is the patch as written (JSON). Apply this one with strategic
	// merge patch: a typed value re-encoded would carry zero values (such as
	// "containers": null) that the user never wrote.
	Patch []byte
	// Template is the patch decoded, to inspect what it touches (for example
	// volume mounts the builder owns).
	Template *corev1.PodTemplateSpec
}

// MergeOverrides merges the overrides of one role group over its three
// layers; any may be nil. Config overrides merge per file and per key,
// environment overrides per variable, command-line overrides are replaced by
// the last layer that states them, and pod overrides stay separate layers
// in order.
//
// A pod override is decoded strictly, like affinity: a field the pod
// template does not have (such as "containres") fails its layer rather than
// being dropped on the quiet, because a patch applied without the part the
// user mistyped gives a pod that is neither what they had nor what they
// asked for. A layer that fails is kept out of PodOverrides and reported in
// PodOverrideErrors; the other layers still apply.
func MergeOverrides(product, role, group *v1alpha1.OverridesSpec) MergedOverrides {
	var out MergedOverrides
	for _, l := range []struct {
		layer Layer
		spec  *v1alpha1.OverridesSpec
	}{{LayerProduct, product}, {LayerRole, role}, {LayerRoleGroup, group}} {
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
		layer, err := decodePodOverride(l.spec)
		switch {
		case err != nil:
			out.PodOverrideErrors = append(out.PodOverrideErrors, withLayer(err, l.layer, "podOverrides"))
		case layer != nil:
			layer.Layer = l.layer
			out.PodOverrides = append(out.PodOverrides, *layer)
		}
	}
	return out
}

// PodOverrideError joins the pod-override errors into one, or nil.
func (m MergedOverrides) PodOverrideError() error {
	return errors.Join(m.PodOverrideErrors...)
}

func decodePodOverride(spec *v1alpha1.OverridesSpec) (*PodOverrideLayer, error) {
	data, err := rawBytes(spec.PodOverrides)
	if err != nil || data == nil {
		return nil, err
	}
	var t corev1.PodTemplateSpec
	if err := decodeStrict(data, &t); err != nil {
		return nil, err
	}
	return &PodOverrideLayer{Patch: slices.Clone(data), Template: &t}, nil
}
