package reconciler

import (
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
)

// failedCreateEvent is the StatefulSet controller's event for a pod it
// could not create, last seen at.
func failedCreateEvent(pod, why string, at time.Time) corev1.Event {
	return corev1.Event{
		Type: corev1.EventTypeWarning, Reason: failedCreate,
		Message:       "Create Pod " + pod + " in StatefulSet c-server-a failed error: " + why,
		LastTimestamp: metav1.NewTime(at),
	}
}

func TestLatestRefusal(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	psa := `pods "c-server-a-1" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true)`
	tests := []struct {
		name     string
		events   []corev1.Event
		existing []string
		want     string
	}{
		{name: "no event"},
		{
			name:   "a refused pod",
			events: []corev1.Event{failedCreateEvent("c-server-a-1", psa, t0)},
			want:   "pod c-server-a-1 refused: " + psa,
		},
		{
			name: "the latest of several",
			events: []corev1.Event{
				failedCreateEvent("c-server-a-1", "exceeded quota", t0.Add(time.Minute)),
				failedCreateEvent("c-server-a-1", psa, t0.Add(2*time.Minute)),
				failedCreateEvent("c-server-a-1", "older", t0),
			},
			want: "pod c-server-a-1 refused: " + psa,
		},
		{
			name:     "about a pod that exists since: history",
			events:   []corev1.Event{failedCreateEvent("c-server-a-0", "exceeded quota", t0)},
			existing: []string{"c-server-a-0"},
		},
		{
			name: "seen last in a series",
			events: []corev1.Event{
				failedCreateEvent("c-server-a-1", "first", t0.Add(time.Minute)),
				func() corev1.Event {
					e := failedCreateEvent("c-server-a-1", psa, t0)
					e.Series = &corev1.EventSeries{Count: 3, LastObservedTime: metav1.NewMicroTime(t0.Add(2 * time.Minute))}
					return e
				}(),
			},
			want: "pod c-server-a-1 refused: " + psa,
		},
		{
			name:   "a message of another form, whole",
			events: []corev1.Event{{Type: corev1.EventTypeWarning, Reason: failedCreate, Message: "quota exceeded", LastTimestamp: metav1.NewTime(t0)}},
			want:   "pods refused: quota exceeded",
		},
		{
			name:   "a Normal event is no refusal",
			events: []corev1.Event{{Type: corev1.EventTypeNormal, Reason: failedCreate, Message: "?", LastTimestamp: metav1.NewTime(t0)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, latestRefusal(tt.events, tt.existing)); diff != "" {
				t.Errorf("refusal (-want +got):\n%s", diff)
			}
		})
	}
}

// A workload's ReplicaFailure condition says why replicas are missing
// without any read.
func TestReplicaFailureConditionIsARefusal(t *testing.T) {
	r := &Reconciler[*testCluster]{}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "c-server-a"}}
	sts.Status.Conditions = []appsv1.StatefulSetCondition{
		{Type: replicaFailure, Status: corev1.ConditionTrue, Reason: failedCreate, Message: "pods are forbidden "},
		{Type: "Progressing", Status: corev1.ConditionTrue, Reason: "Other"},
	}
	got := r.refusedPods(t.Context(), newPass(logr.Discard(), time.Now()), sts, 1, []string{"c-server-a-0"})
	want := []string{"StatefulSet c-server-a: FailedCreate: pods are forbidden"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refused (-want +got):\n%s", diff)
	}
}

// Refused pods make the cluster degraded and unavailable with a reason of
// their own, before pods that fail.
func TestRefusedPodsConditions(t *testing.T) {
	r := &Reconciler[*testCluster]{}
	cr := &testCluster{ObjectMeta: metav1.ObjectMeta{Generation: 1}}
	p := newPass(logr.Discard(), time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC))
	p.health = health{checked: true, rolling: []string{"server/a: 0 of 1 replicas ready"},
		refused: []string{"pod c-server-a-0 refused: forbidden"}, failing: []string{"pod c-server-b-0: unschedulable: no node"}}
	r.setConditions(p, cr, nil, failure.ClassOther)
	type state struct{ Status, Reason, Message string }
	var got []state
	for _, typ := range []string{commonsv1alpha1.ConditionDegraded, commonsv1alpha1.ConditionAvailable} {
		c := meta.FindStatusCondition(cr.Status.Conditions, typ)
		got = append(got, state{string(c.Status), c.Reason, c.Message})
	}
	msg := "pod c-server-a-0 refused: forbidden\npod c-server-b-0: unschedulable: no node"
	want := []state{{"True", ReasonPodsRefused, msg}, {"False", ReasonPodsRefused, msg}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Degraded, Available (-want +got):\n%s", diff)
	}
}

func TestCreationDue(t *testing.T) {
	sts := func(policy appsv1.PodManagementPolicyType, gen, observed int64, replicas, ready int32) *appsv1.StatefulSet {
		s := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Generation: gen}, Spec: appsv1.StatefulSetSpec{PodManagementPolicy: policy}}
		s.Status = appsv1.StatefulSetStatus{ObservedGeneration: observed, Replicas: replicas, ReadyReplicas: ready}
		return s
	}
	tests := []struct {
		name     string
		sts      *appsv1.StatefulSet
		existing int
		want     bool
	}{
		{"every pod there", sts(appsv1.ParallelPodManagement, 2, 2, 3, 1), 3, false},
		{"spec not observed yet", sts(appsv1.ParallelPodManagement, 3, 2, 0, 0), 0, false},
		{"parallel, pods lacking", sts(appsv1.ParallelPodManagement, 2, 2, 1, 0), 1, true},
		{"ordered, waiting for a pod to be ready", sts(appsv1.OrderedReadyPodManagement, 2, 2, 1, 0), 1, false},
		{"ordered, the next pod lacking", sts(appsv1.OrderedReadyPodManagement, 2, 2, 1, 1), 1, true},
		{"ordered, the first pod lacking", sts(appsv1.OrderedReadyPodManagement, 2, 2, 0, 0), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := creationDue(tt.sts, tt.existing, 3); got != tt.want {
				t.Errorf("creationDue = %v, want %v", got, tt.want)
			}
		})
	}
}
