package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
)

// waitEvent waits for an event on the cluster resource name with reason
// whose note contains every one of parts, and returns its note.
func waitEvent(t *testing.T, c client.Client, ns, name, reason string, parts ...string) string {
	t.Helper()
	note, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		list := &eventsv1.EventList{}
		if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
			return "", false, err
		}
		var seen []string
		for _, e := range list.Items {
			if e.Regarding.Name != name || e.Reason != reason {
				continue
			}
			seen = append(seen, e.Note)
			if containsAll(e.Note, parts) {
				return e.Note, true, nil
			}
		}
		return strings.Join(seen, " | "), false, nil
	}, time.Minute)
	if err != nil {
		t.Fatalf("waiting for a %s event on %s containing %q: %v", reason, name, parts, err)
	}
	return note
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// conditionMessage returns the message of condition typ, or "".
func conditionMessage(cr *sampleCluster, typ string) string {
	for _, c := range cr.Status.Conditions {
		if c.Type == typ {
			return c.Message
		}
	}
	return ""
}

// findCondition returns condition typ of cr, or nil.
func findCondition(cr *sampleCluster, typ string) *metav1.Condition {
	for i := range cr.Status.Conditions {
		if cr.Status.Conditions[i].Type == typ {
			return &cr.Status.Conditions[i]
		}
	}
	return nil
}

// waitCurrentCondition is waitCondition for a condition that describes the
// cluster's current generation.
func waitCurrentCondition(t *testing.T, c client.Client, key client.ObjectKey, typ, status, reason string, timeout time.Duration) *sampleCluster {
	t.Helper()
	got, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*sampleCluster, bool, error) {
		cr := &sampleCluster{}
		if err := c.Get(ctx, key, cr); err != nil {
			return nil, false, err
		}
		cond := findCondition(cr, typ)
		done := cond != nil && cond.ObservedGeneration == cr.Generation && string(cond.Status) == status && (reason == "" || cond.Reason == reason)
		return cr, done, nil
	}, timeout)
	if err != nil {
		t.Fatalf("waiting for %s=%s (%s) of the current generation: %v", typ, status, reason, err)
	}
	return got
}
