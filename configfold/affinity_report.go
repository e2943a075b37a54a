package configfold

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// AffinityOverride describes the folded affinity against what was declared
// beneath it: the members a lower layer declared that the result lacks,
// because a higher layer replaced config.affinity wholesale. An operator
// turns it into an AffinityOverridden Warning event, since nothing else
// shows the loss: the resource still reads as the user wrote it and the
// pods are valid.
//
// It describes the final result only. A member the winning layer restates
// is not listed (the result has it), and nothing is listed when a layer
// clears the affinity with {}, nor for what lies beneath such a clear:
// clearing is exactly what that value asks for.
type AffinityOverride struct {
	// By is the layer whose affinity is the result.
	By v1alpha1.Layer
	// FieldPath is the absolute path of By's affinity, such as
	// "spec.roles.server.roleGroups.default.config.affinity".
	FieldPath string
	// Discarded lists each member missing from the result, in the order
	// nodeAffinity, podAffinity, podAntiAffinity, with the highest lower
	// layer that declared it.
	Discarded []DiscardedAffinity
}

// DiscardedAffinity is one affinity member a lower layer declared that the
// folded affinity lacks.
type DiscardedAffinity struct {
	// Member is the missing member.
	Member AffinityMember
	// Layer is the highest layer beneath the result that declared it.
	Layer v1alpha1.Layer
	// FieldPath is the absolute path of the declared member, such as
	// "spec.roles.server.config.affinity.podAntiAffinity".
	FieldPath string
}

// String says what the result lacks, where it was declared and what to do
// about it, for the Warning event's message.
func (o AffinityOverride) String() string {
	lost := make([]string, len(o.Discarded))
	for i, d := range o.Discarded {
		where := "declared in " + d.FieldPath
		if d.Layer == v1alpha1.LayerDeclaration {
			where = "the operator's default for the role"
		}
		lost[i] = fmt.Sprintf("%s (%s)", d.Member, where)
	}
	return fmt.Sprintf("%s replaces the affinity wholesale, so the pods get no %s; "+
		"affinity is not merged per member: restate a member beside your own to keep it",
		o.FieldPath, strings.Join(lost, " and no "))
}

// statedAffinity is one layer's decoded affinity; aff is nil for a clear.
type statedAffinity struct {
	at  location
	aff *corev1.Affinity
}

// foldAffinity applies the wholesale rule: the last layer stating an
// affinity wins. It then compares the result with what the layers beneath
// it, up to the last clear, declared.
func foldAffinity(layers []layer[v1alpha1.RoleGroupConfigSpec]) (*corev1.Affinity, *AffinityOverride, error) {
	var (
		stated []statedAffinity
		errs   []error
	)
	for _, l := range layers {
		if l.spec == nil || l.spec.Affinity == nil {
			continue
		}
		data, err := rawBytes(l.spec.Affinity)
		if err != nil {
			errs = append(errs, place(err, l.at, "config.affinity"))
			continue
		}
		if data == nil {
			continue // null states nothing
		}
		aff, err := DecodeAffinity(l.spec.Affinity)
		if err != nil {
			errs = append(errs, place(err, l.at, "config.affinity"))
			continue
		}
		stated = append(stated, statedAffinity{at: l.at, aff: aff})
	}
	if err := errors.Join(errs...); err != nil || len(stated) == 0 {
		return nil, nil, err
	}
	winner := stated[len(stated)-1]
	if winner.aff == nil {
		return nil, nil, nil // cleared on purpose
	}
	beneath := stated[:len(stated)-1]
	for i, s := range slices.Backward(beneath) {
		if s.aff == nil {
			beneath = beneath[i+1:] // what lies beneath a clear was cleared
			break
		}
	}
	return winner.aff, discarded(winner, beneath), nil
}

// discarded lists the members the layers beneath the winner declared and
// the winner lacks, each with the highest layer declaring it; nil when
// there are none.
func discarded(winner statedAffinity, beneath []statedAffinity) *AffinityOverride {
	kept := affinityMembers(winner.aff)
	var lost []DiscardedAffinity
	for _, m := range []AffinityMember{NodeAffinity, PodAffinity, PodAntiAffinity} {
		if slices.Contains(kept, m) {
			continue
		}
		for _, s := range slices.Backward(beneath) {
			if slices.Contains(affinityMembers(s.aff), m) {
				lost = append(lost, DiscardedAffinity{Member: m, Layer: s.at.Layer, FieldPath: s.at.path("config.affinity." + string(m))})
				break
			}
		}
	}
	if len(lost) == 0 {
		return nil
	}
	return &AffinityOverride{By: winner.at.Layer, FieldPath: winner.at.path("config.affinity"), Discarded: lost}
}
