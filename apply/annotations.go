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

// Annotation and label names, appended to "<engine name>/".
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
	// AnnotationDigest is written by the engine: the desired object's
	// digest.
	AnnotationDigest = "digest"
	// AnnotationOwnerID is written by the engine (as annotation, and
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

// parseSettings reads the engine's annotations of u, rejecting unknown
// keys and bad values, and removes none of them (they stay on the object so
// that users see them).
func (r *Engine) parseSettings(u metav1.Object, ref inventory.Ref, pos int) (settings, error) {
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
		if reason := s.set(strings.TrimPrefix(k, r.prefix), ann[k]); reason != "" {
			return s, r.invalid(ref, pos, k, "%s", reason)
		}
	}
	if s.purgeOrder != nil && *s.purgeOrder < s.applyOrder {
		return s, r.invalid(ref, pos, r.prefix+AnnotationPurgeOrder, "purge order %d is before the apply order %d", *s.purgeOrder, s.applyOrder)
	}
	return s, nil
}

// set applies the annotation named suffix (below the engine's prefix)
// with value v, and says what is wrong with it, if anything.
func (s *settings) set(suffix, v string) string {
	switch suffix {
	case AnnotationAdoptionPolicy:
		if s.adoption = AdoptionPolicy(v); !validAdoption(s.adoption) {
			return fmt.Sprintf("unknown adoption policy %q", v)
		}
	case AnnotationReconcilePolicy:
		if s.reconcile = ReconcilePolicy(v); !validReconcile(s.reconcile) {
			return fmt.Sprintf("unknown reconcile policy %q", v)
		}
	case AnnotationUpdatePolicy:
		if s.update = UpdatePolicy(v); !validUpdate(s.update) {
			return fmt.Sprintf("unknown update policy %q", v)
		}
	case AnnotationDeletePolicy:
		if s.deletion = DeletePolicy(v); !validDelete(s.deletion) {
			return fmt.Sprintf("unknown delete policy %q", v)
		}
	case AnnotationApplyOrder, AnnotationDeleteOrder, AnnotationPurgeOrder:
		return s.setOrder(suffix, v)
	case AnnotationStatusHint:
		h, err := parseStatusHint(v)
		if err != nil {
			return err.Error()
		}
		s.hint = h
	case AnnotationReapplyInterval:
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Sprintf("%q is not a non-negative duration such as 30m", v)
		}
		s.reapply = d
	case AnnotationDigest, AnnotationOwnerID:
		return "is written by the engine and must not be set"
	default:
		return "unknown annotation"
	}
	return ""
}

// setOrder sets the apply, delete or purge order.
func (s *settings) setOrder(suffix, v string) string {
	n, err := strconv.Atoi(v)
	if err != nil || n < MinOrder || n > MaxOrder {
		return fmt.Sprintf("%q is not an integer in [%d, %d]", v, MinOrder, MaxOrder)
	}
	switch suffix {
	case AnnotationApplyOrder:
		s.applyOrder = n
	case AnnotationDeleteOrder:
		s.delOrder = n
	default:
		s.purgeOrder = &n
	}
	return ""
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
