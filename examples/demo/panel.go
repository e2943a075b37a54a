package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
)

// panel renders the sample cluster for the live view: its conditions, its
// StatefulSets with ready pods, and the last events.
func (e *env) panel(ctx context.Context) string {
	var b strings.Builder
	k := &v1alpha1.KafkaCluster{}
	if err := e.client.Get(ctx, kafkaKey(), k); err == nil {
		fmt.Fprintf(&b, "KafkaCluster %s/%s  generation %d\n ", k.Namespace, k.Name, k.Generation)
		for _, typ := range commonsv1alpha1.ConditionTypes() {
			for _, c := range k.Status.Conditions {
				if c.Type == typ {
					fmt.Fprintf(&b, " %s=%s", typ, c.Status)
				}
			}
		}
		b.WriteString("\n")
		if msg := conditionMessage(k, commonsv1alpha1.ConditionOrphanCleanupPending); msg != "" {
			fmt.Fprintf(&b, "  cleanup: %s\n", strings.ReplaceAll(msg, "\n", "; "))
		}
	}
	stss := &appsv1.StatefulSetList{}
	if err := e.client.List(ctx, stss, client.InNamespace(e.ns)); err == nil {
		var lines []string
		for _, s := range stss.Items {
			want := int32(0)
			if s.Spec.Replicas != nil {
				want = *s.Spec.Replicas
			}
			lines = append(lines, fmt.Sprintf("  %-34s %d/%d ready", s.Name, s.Status.ReadyReplicas, want))
		}
		b.WriteString(sortedLines(lines) + "\n")
	}
	counts := map[string]int{}
	for kind, list := range map[string]client.ObjectList{"ConfigMaps": &corev1.ConfigMapList{}, "Services": &corev1.ServiceList{}, "pods": &corev1.PodList{}} {
		if err := e.client.List(ctx, list, client.InNamespace(e.ns)); err == nil {
			counts[kind] = lenOf(list)
		}
	}
	fmt.Fprintf(&b, "  %d ConfigMaps, %d Services, %d pods\n", counts["ConfigMaps"], counts["Services"], counts["pods"])
	b.WriteString("recent events:\n")
	for _, l := range recentEvents(ctx, e.client, e.ns, 6) {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// recentEvents returns the last n events of the namespace's cluster
// resources, oldest first.
func recentEvents(ctx context.Context, c client.Client, ns string, n int) []string {
	list := &eventsv1.EventList{}
	if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
		return nil
	}
	items := slices.DeleteFunc(list.Items, func(e eventsv1.Event) bool { return e.Regarding.Kind == "Pod" })
	slices.SortFunc(items, func(a, b eventsv1.Event) int { return eventTime(a).Compare(eventTime(b)) })
	if len(items) > n {
		items = items[len(items)-n:]
	}
	var out []string
	for _, e := range items {
		out = append(out, fmt.Sprintf("%s %-7s %-22s %s", eventTime(e).Format(time.TimeOnly), e.Type, e.Reason, firstLine(e.Note)))
	}
	return out
}

func eventTime(e eventsv1.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	if !e.EventTime.IsZero() {
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

func lenOf(list client.ObjectList) int {
	switch l := list.(type) {
	case *corev1.ConfigMapList:
		return len(l.Items)
	case *corev1.ServiceList:
		return len(l.Items)
	case *corev1.PodList:
		return len(l.Items)
	}
	return 0
}
