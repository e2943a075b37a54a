package apply

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opkit-dev/opkit/api/inventory"
)

// Annotation and label names, appended to "<reconciler name>/".
const (
	// AnnotationAdoptionPolicy overrides Options.AdoptionPolicy.
	AnnotationAdoptionPolicy = "adoption-policy"
	// AnnotationReconcilePolicy overrides Options.ReconcilePolicy.
	AnnotationReconcilePolicy = "reconcile-policy"
	// AnnotationUpdatePolicy overrides Options.UpdatePolicy.
	AnnotationUpdatePolicy = "update-policy"
	// AnnotationDeletePolicy overrides Options.DeletePolicy.
	AnnotationDeletePolicy = "delete-policy"
	// AnnotationApplyOrder is the object's apply wave, an integer in
	// [-32768, 32767]; default 0.
	AnnotationApplyOrder = "apply-order"
	// AnnotationDeleteOrder is the object's delete wave, same range.
	AnnotationDeleteOrder = "delete-order"
	// AnnotationPurgeOrder makes the object transient: it is deleted at the
	// end of this apply wave once ready.
	AnnotationPurgeOrder = "purge-order"
	// AnnotationStatusHint adds readiness checks for custom types: a comma
	// separated list of has-observed-generation, has-ready-condition and
	// conditions=A;B.
	AnnotationStatusHint = "status-hint"
	// AnnotationReapplyInterval overrides Options.ReapplyInterval for the
	// object: a Go duration such as "30m"; "0" turns the periodic rewrite
	// off for it.
	AnnotationReapplyInterval = "reapply-interval"
	// AnnotationDigest is written by the reconciler: the desired object's
	// digest.
	AnnotationDigest = "digest"
	// AnnotationOwnerID is written by the reconciler (as annotation, and
	// hashed as label): the owner id.
	AnnotationOwnerID = "owner-id"
)

// Order bounds for apply, delete and purge orders.
const (
	MinOrder = math.MinInt16
	MaxOrder = math.MaxInt16
)

// statusHint is a parsed AnnotationStatusHint.
type statusHint struct {
	observedGeneration bool
	readyCondition     bool
	conditions         []string
}

// settings are an object's effective policies and orders.
type settings struct {
	adoption   AdoptionPolicy
	reconcile  ReconcilePolicy
	update     UpdatePolicy
	deletion   DeletePolicy
	applyOrder int
	delOrder   int
	purgeOrder *int
	hint       statusHint
	// reapply is the object's reapply interval; zero or less means never.
	reapply time.Duration
}

// parseSettings reads the reconciler's annotations of u, rejecting unknown
// keys and bad values, and removes none of them (they stay on the object so
// that users see them).
func (r *Reconciler) parseSettings(u metav1.Object, ref inventory.Ref, pos int) (settings, error) {
	s := settings{
		adoption:  r.opts.AdoptionPolicy,
		reconcile: r.opts.ReconcilePolicy,
		update:    r.opts.UpdatePolicy,
		deletion:  r.opts.DeletePolicy,
		reapply:   r.opts.ReapplyInterval,
	}
	ann := u.GetAnnotations()
	keys := make([]string, 0, len(ann))
	for k := range ann {
		if strings.HasPrefix(k, r.prefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := ann[k]
		bad := func(reason string) error {
			return r.invalid(ref, pos, k, "%s", reason)
		}
		switch strings.TrimPrefix(k, r.prefix) {
		case AnnotationAdoptionPolicy:
			if s.adoption = AdoptionPolicy(v); !validAdoption(s.adoption) {
				return s, bad(fmt.Sprintf("unknown adoption policy %q", v))
			}
		case AnnotationReconcilePolicy:
			if s.reconcile = ReconcilePolicy(v); !validReconcile(s.reconcile) {
				return s, bad(fmt.Sprintf("unknown reconcile policy %q", v))
			}
		case AnnotationUpdatePolicy:
			if s.update = UpdatePolicy(v); !validUpdate(s.update) {
				return s, bad(fmt.Sprintf("unknown update policy %q", v))
			}
		case AnnotationDeletePolicy:
			if s.deletion = DeletePolicy(v); !validDelete(s.deletion) {
				return s, bad(fmt.Sprintf("unknown delete policy %q", v))
			}
		case AnnotationApplyOrder, AnnotationDeleteOrder, AnnotationPurgeOrder:
			n, err := strconv.Atoi(v)
			if err != nil || n < MinOrder || n > MaxOrder {
				return s, bad(fmt.Sprintf("%q is not an integer in [%d, %d]", v, MinOrder, MaxOrder))
			}
			switch strings.TrimPrefix(k, r.prefix) {
			case AnnotationApplyOrder:
				s.applyOrder = n
			case AnnotationDeleteOrder:
				s.delOrder = n
			default:
				s.purgeOrder = &n
			}
		case AnnotationStatusHint:
			h, err := parseStatusHint(v)
			if err != nil {
				return s, bad(err.Error())
			}
			s.hint = h
		case AnnotationReapplyInterval:
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return s, bad(fmt.Sprintf("%q is not a non-negative duration such as 30m", v))
			}
			s.reapply = d
		case AnnotationDigest, AnnotationOwnerID:
			return s, bad("is written by the reconciler and must not be set")
		default:
			return s, bad("unknown annotation")
		}
	}
	if s.purgeOrder != nil && *s.purgeOrder < s.applyOrder {
		return s, r.invalid(ref, pos, r.prefix+AnnotationPurgeOrder, "purge order %d is before the apply order %d", *s.purgeOrder, s.applyOrder)
	}
	return s, nil
}

func parseStatusHint(v string) (statusHint, error) {
	var h statusHint
	for part := range strings.SplitSeq(v, ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "has-observed-generation":
			h.observedGeneration = true
		case part == "has-ready-condition":
			h.readyCondition = true
		case strings.HasPrefix(part, "conditions="):
			for c := range strings.SplitSeq(strings.TrimPrefix(part, "conditions="), ";") {
				if c = strings.TrimSpace(c); c != "" {
					h.conditions = append(h.conditions, c)
				}
			}
			if len(h.conditions) == 0 {
				return h, fmt.Errorf("conditions= names no condition")
			}
		default:
			return h, fmt.Errorf("unknown status hint %q", part)
		}
	}
	return h, nil
}

// empty reports whether the hint asks for nothing.
func (h statusHint) empty() bool {
	return !h.observedGeneration && !h.readyCondition && len(h.conditions) == 0
}
