package reconciler

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Pods the API server refuses to create (a namespace's Pod Security level,
// a quota, another admission plugin) never exist, so no pod listing shows
// them: the StatefulSet only stays short of its replicas. The StatefulSet
// controller says why in FailedCreate Warning events on the StatefulSet;
// a workload controller that sets a ReplicaFailure condition says it there.
// The health check reads those events only for a group that is not
// settled and lacks pods, at the pace of its pod listings, selected by
// field on the server (the StatefulSet's name, UID and the reason), so a
// settled cluster costs no read.

// replicaFailure is the condition type workload controllers set when they
// cannot create replicas (ReplicaSets and Deployments do; a StatefulSet
// controller may).
const replicaFailure = "ReplicaFailure"

// failedCreate is the reason of the StatefulSet controller's event when it
// cannot create a pod (or its claims).
const failedCreate = "FailedCreate"

// refusedPods says why pods of the group's StatefulSet sts cannot be
// created, one line per cause: its ReplicaFailure condition, and, when the
// group has fewer pods than want (existing names those it has) and the
// controller should have created them (creationDue), the latest
// FailedCreate event about a pod it lacks. Events that cannot be read
// (the operator may lack the right) are logged and leave the pods
// unexplained; the listing is spaced all the same.
func (r *Reconciler[CR]) refusedPods(ctx context.Context, p *pass, sts *appsv1.StatefulSet, want int32, existing []string) []string {
	var refused []string
	for _, c := range sts.Status.Conditions {
		if c.Type == replicaFailure && c.Status == corev1.ConditionTrue {
			refused = append(refused, fmt.Sprintf("StatefulSet %s: %s: %s", sts.Name, c.Reason, strings.TrimSpace(c.Message)))
		}
	}
	if !creationDue(sts, len(existing), want) {
		return refused
	}
	events := &corev1.EventList{}
	if err := r.apiReader.List(ctx, events, client.InNamespace(sts.Namespace), client.MatchingFields{
		"involvedObject.kind": "StatefulSet",
		"involvedObject.name": sts.Name,
		"involvedObject.uid":  string(sts.UID),
		"reason":              failedCreate,
	}); err != nil {
		p.log.Error(err, "listing the StatefulSet's events for the health check", "statefulSet", sts.Name)
		return refused
	}
	if line := latestRefusal(events.Items, existing); line != "" {
		refused = append(refused, line)
	}
	return refused
}

// creationDue reports whether the StatefulSet controller should have
// created pods the group lacks (it has existing of want): it observed the
// current spec, which it does also when a create fails, and, creating
// pods one by one (OrderedReady), it does not wait for one to be ready.
// A converging group costs no event read so.
func creationDue(sts *appsv1.StatefulSet, existing int, want int32) bool {
	if int32(existing) >= want || sts.Status.ObservedGeneration < sts.Generation {
		return false
	}
	ordered := sts.Spec.PodManagementPolicy != appsv1.ParallelPodManagement
	return !ordered || sts.Status.ReadyReplicas >= sts.Status.Replicas
}

// latestRefusal describes the latest FailedCreate event about a pod that
// does not exist (an event about a pod that exists since is history), or
// returns "".
func latestRefusal(events []corev1.Event, existing []string) string {
	var (
		latest time.Time
		line   string
	)
	for _, e := range events {
		if e.Type != corev1.EventTypeWarning || e.Reason != failedCreate {
			continue
		}
		pod, why := splitFailedCreate(e.Message)
		if pod != "" && slices.Contains(existing, pod) {
			continue
		}
		if at := lastSeen(e); line == "" || at.After(latest) {
			latest, line = at, refusalLine(pod, why)
		}
	}
	return line
}

// splitFailedCreate takes the StatefulSet controller's message ("Create
// Pod <pod> in StatefulSet <sts> failed error: <why>") apart; a message of
// another form is returned whole, naming no pod.
func splitFailedCreate(msg string) (pod, why string) {
	head, why, found := strings.Cut(msg, " failed error: ")
	verb, rest, isPod := strings.Cut(head, " Pod ")
	pod, _, named := strings.Cut(rest, " in StatefulSet ")
	if !found || !isPod || !named || !strings.EqualFold(verb, "create") {
		return "", strings.TrimSpace(msg)
	}
	return pod, strings.TrimSpace(why)
}

func refusalLine(pod, why string) string {
	if pod == "" {
		return "pods refused: " + why
	}
	return fmt.Sprintf("pod %s refused: %s", pod, why)
}

// lastSeen is when an event last happened, whichever API wrote it.
func lastSeen(e corev1.Event) time.Time {
	at := e.LastTimestamp.Time
	if e.Series != nil && e.Series.LastObservedTime.After(at) {
		at = e.Series.LastObservedTime.Time
	}
	if e.EventTime.After(at) {
		at = e.EventTime.Time
	}
	return at
}
