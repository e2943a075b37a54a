package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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

// logWorkloadsOnFailure logs, when the test has failed, the status of the
// StatefulSets in ns, their pods and their ControllerRevisions: what the
// StatefulSet controller made of the objects is what a failed wait for
// readiness needs to be understood.
func logWorkloadsOnFailure(t *testing.T, c client.Client, ns string) {
	t.Helper()
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var sets appsv1.StatefulSetList
		var pods corev1.PodList
		var revs appsv1.ControllerRevisionList
		for _, l := range []client.ObjectList{&sets, &pods, &revs} {
			if err := c.List(ctx, l, client.InNamespace(ns)); err != nil {
				t.Logf("listing %T: %v", l, err)
			}
		}
		for _, s := range sets.Items {
			t.Logf("StatefulSet %s uid %s generation %d: status %+v", s.Name, s.UID, s.Generation, s.Status)
		}
		for _, p := range pods.Items {
			t.Logf("Pod %s uid %s phase %s deleting %v revision %s owners %v", p.Name, p.UID, p.Status.Phase,
				p.DeletionTimestamp != nil, p.Labels[appsv1.ControllerRevisionHashLabelKey], p.OwnerReferences)
		}
		for _, r := range revs.Items {
			t.Logf("ControllerRevision %s revision %d owners %v", r.Name, r.Revision, r.OwnerReferences)
		}
	})
}
