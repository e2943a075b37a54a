package apply

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

var (
	gkJob       = schema.GroupKind{Group: "batch", Kind: "Job"}
	gkDaemonSet = schema.GroupKind{Group: "apps", Kind: "DaemonSet"}
)

// readiness computes the status of a live object: kstatus, with stricter
// rules for CRDs, APIServices and Jobs, and the object's status hint.
func readiness(live *unstructured.Unstructured, hint statusHint) (kstatus.Status, error) {
	if live.GetDeletionTimestamp() != nil {
		return kstatus.TerminatingStatus, nil
	}
	live = namesakeStatusObserved(live)
	conds, err := kstatus.GetObjectWithConditions(live.Object)
	if err != nil {
		return kstatus.UnknownStatus, fmt.Errorf("reading conditions: %w", err)
	}
	isTrue := func(t string) bool {
		for _, c := range conds.Status.Conditions {
			if c.Type == t {
				return c.Status == corev1.ConditionTrue
			}
		}
		return false
	}
	var st kstatus.Status
	switch live.GroupVersionKind().GroupKind() {
	case gkCRD:
		st = statusIf(isTrue("Established") && isTrue("NamesAccepted"))
	case gkAPIService:
		st = statusIf(isTrue("Available"))
	case gkJob:
		// kstatus calls a started Job current; a dependent waiting for a Job
		// needs its work done.
		switch {
		case isTrue("Complete"):
			st = kstatus.CurrentStatus
		case isTrue("Failed"):
			st = kstatus.FailedStatus
		default:
			st = kstatus.InProgressStatus
		}
	default:
		res, err := kstatus.Compute(live)
		if err != nil {
			return kstatus.UnknownStatus, fmt.Errorf("computing status: %w", err)
		}
		st = res.Status
	}
	if st != kstatus.CurrentStatus || hintsHold(live, hint, isTrue) {
		return st, nil
	}
	return kstatus.InProgressStatus, nil
}

// hintsHold reports whether an object current by its kind's rules also
// meets its status hint: the observed generation (or, for types that keep
// it only per condition, the Ready condition's), the Ready condition, and
// the conditions the hint names.
func hintsHold(live *unstructured.Unstructured, hint statusHint, isTrue func(string) bool) bool {
	if hint.observedGeneration {
		og, found, _ := unstructured.NestedInt64(live.Object, "status", "observedGeneration")
		if !found {
			og, found = readyConditionGeneration(live)
		}
		if !found || og != live.GetGeneration() {
			return false
		}
	}
	if hint.readyCondition && !isTrue("Ready") {
		return false
	}
	for _, c := range hint.conditions {
		if !isTrue(c) {
			return false
		}
	}
	return true
}

// namesakeStatusObserved returns live, or, for a StatefulSet or a
// DaemonSet whose status.observedGeneration is ahead of its generation, a
// copy whose observed generation is its generation.
//
// Such a status was written for a deleted object of the same name: when
// their status write meets a conflict, the StatefulSet and DaemonSet
// controllers read the object again by name and write the status they
// computed onto whatever object now holds the name. A StatefulSet deleted
// with --cascade=orphan and created again can so carry the old one's
// observedGeneration (2, say, on a generation-1 object). The controller
// never lowers it: it writes a status only when a count or a revision
// differs from what it computes, or when its observed generation grows.
// So the counts of such a status are the controller's own verdict on the
// new object, and it stays ahead until the spec changes twice: judged by
// the generation alone, the object would be in progress for that long.
func namesakeStatusObserved(live *unstructured.Unstructured) *unstructured.Unstructured {
	gk := live.GroupVersionKind().GroupKind()
	if gk != gkStatefulSet && gk != gkDaemonSet {
		return live
	}
	og, found, err := unstructured.NestedInt64(live.Object, "status", "observedGeneration")
	if err != nil || !found || og <= live.GetGeneration() {
		return live
	}
	c := live.DeepCopy()
	if err := unstructured.SetNestedField(c.Object, live.GetGeneration(), "status", "observedGeneration"); err != nil {
		return live
	}
	return c
}

func statusIf(ok bool) kstatus.Status {
	if ok {
		return kstatus.CurrentStatus
	}
	return kstatus.InProgressStatus
}

// readyConditionGeneration returns the observedGeneration of the Ready
// condition, for types that record it only there.
func readyConditionGeneration(live *unstructured.Unstructured) (int64, bool) {
	conds, _, _ := unstructured.NestedSlice(live.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Ready" {
			continue
		}
		og, found, _ := unstructured.NestedInt64(m, "observedGeneration")
		return og, found
	}
	return 0, false
}
