package configfold

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// AffinityOverride records one wholesale replacement of config.affinity that
// discarded members stated beneath it. An operator turns it into an
// AffinityOverridden Warning event, because nothing else would show the loss:
// the resource still reads as the user wrote it and the pods are valid.
type AffinityOverride struct {
	// Replaced is the layer whose affinity was discarded.
	Replaced Layer
	// By is the layer that stated the replacing affinity.
	By Layer
	// Discarded lists the members Replaced stated and By does not, in the
	// order nodeAffinity, podAffinity, podAntiAffinity. A member By states
	// too is not listed: restating it is an explicit choice.
	Discarded []AffinityMember
}

// String says what happened and what to do about it.
func (o AffinityOverride) String() string {
	names := make([]string, len(o.Discarded))
	for i, m := range o.Discarded {
		names[i] = string(m)
	}
	return fmt.Sprintf("the %s config replaces config.affinity wholesale, discarding the %s declared by the %s config; "+
		"affinity is not merged per member, so restate a discarded member beside your own to keep it",
		layerNoun(o.By), strings.Join(names, ", "), layerNoun(o.Replaced))
}

func layerNoun(l Layer) string {
	switch l {
	case LayerRoleGroup:
		return "role group's"
	case LayerRole:
		return "role's"
	case LayerProduct:
		return "product's default"
	}
	return string(l)
}

// FoldCommon folds the common role-group config over its three layers: the
// operator's declared defaults, the role's config and the role group's
// config, a later layer winning. Any layer may be nil.
//
// Field by field:
//   - resources fold per leaf (cpu.min, cpu.max, memory.limit,
//     storage.capacity, storage.storageClass): a default cpu.min survives a
//     layer that states only cpu.max;
//   - affinity is replaced wholesale by a layer that states one, as
//     Kubernetes does for a pod's affinity; {} (or a value whose members
//     are all empty) clears it. Each replacement that discards members is
//     returned as an AffinityOverride; clearing reports nothing, because
//     that is what it asks for. The folded affinity is normalized (see
//     NormalizeAffinity);
//   - logging folds per container: a level is replaced only where a later
//     layer states it, loggers are the union, enableVectorAgent folds on
//     presence;
//   - gracefulShutdownTimeout is atomic: the last layer stating it wins.
//
// Every stated affinity is decoded strictly and every stated
// gracefulShutdownTimeout must be a positive Go duration, in every layer,
// even one a later layer overrides: a mistake should not surface only when
// the value hiding it is removed. Problems are *FieldError values joined
// with errors.Join, each naming its layer and field; on error the config is
// nil.
//
// The result shares no memory with the inputs.
func FoldCommon(defaults, role, group *v1alpha1.RoleGroupConfigSpec) (*v1alpha1.RoleGroupConfigSpec, []AffinityOverride, error) {
	layers := []commonLayer{
		{LayerProduct, defaults},
		{LayerRole, role},
		{LayerRoleGroup, group},
	}
	var errs []error
	out := &v1alpha1.RoleGroupConfigSpec{}
	for _, l := range layers {
		if l.spec == nil {
			continue
		}
		if err := checkGracefulShutdownTimeout(l.spec.GracefulShutdownTimeout); err != nil {
			errs = append(errs, withLayer(err, l.layer, "config.gracefulShutdownTimeout"))
		}
		if l.spec.GracefulShutdownTimeout != nil {
			out.GracefulShutdownTimeout = new(*l.spec.GracefulShutdownTimeout)
		}
	}
	affinity, overrides, err := foldAffinity(layers)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	out.Affinity, err = EncodeAffinity(affinity)
	if err != nil {
		return nil, nil, err
	}
	out.Resources = foldResources(layers)
	out.Logging = foldLogging(layers)
	return out, overrides, nil
}

type commonLayer struct {
	layer Layer
	spec  *v1alpha1.RoleGroupConfigSpec
}

// foldAffinity applies the wholesale rule and records what each
// replacement discarded.
func foldAffinity(layers []commonLayer) (*corev1.Affinity, []AffinityOverride, error) {
	var (
		current *corev1.Affinity
		from    Layer
		reports []AffinityOverride
		errs    []error
	)
	for _, l := range layers {
		if l.spec == nil || l.spec.Affinity == nil {
			continue
		}
		data, err := rawBytes(l.spec.Affinity)
		if err != nil {
			errs = append(errs, withLayer(err, l.layer, "config.affinity"))
			continue
		}
		if data == nil {
			continue // null states nothing
		}
		next, err := DecodeAffinity(l.spec.Affinity)
		if err != nil {
			errs = append(errs, withLayer(err, l.layer, "config.affinity"))
			continue
		}
		if next != nil && current != nil {
			if lost := missingMembers(current, next); len(lost) > 0 {
				reports = append(reports, AffinityOverride{Replaced: from, By: l.layer, Discarded: lost})
			}
		}
		current, from = next, l.layer
	}
	return current, reports, errors.Join(errs...)
}

// missingMembers lists the members old states and next does not.
func missingMembers(old, next *corev1.Affinity) []AffinityMember {
	var lost []AffinityMember
	stated := affinityMembers(next)
	for _, m := range affinityMembers(old) {
		if !slices.Contains(stated, m) {
			lost = append(lost, m)
		}
	}
	return lost
}

func checkGracefulShutdownTimeout(s *string) error {
	if s == nil {
		return nil
	}
	d, err := time.ParseDuration(*s)
	if err != nil {
		return fmt.Errorf("%w: %q is not a Go duration such as \"30s\" or \"2m\"", ErrInvalidValue, *s)
	}
	if d <= 0 {
		return fmt.Errorf("%w: %q must be positive", ErrInvalidValue, *s)
	}
	return nil
}
