package e2e_test

import (
	"context"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// describeWorkloads says how the StatefulSets and pods of ns stand, for a
// failure message.
func describeWorkloads(ctx context.Context, c client.Reader, ns string) string {
	var b strings.Builder
	var sets appsv1.StatefulSetList
	if err := c.List(ctx, &sets, client.InNamespace(ns)); err != nil {
		return err.Error()
	}
	for _, s := range sets.Items {
		fmt.Fprintf(&b, "StatefulSet %s: generation %d, replicas %d; status: observed %d, replicas %d, ready %d, updated %d, current %s, update %s; annotations %v\n",
			s.Name, s.Generation, ptrValue(s.Spec.Replicas), s.Status.ObservedGeneration, s.Status.Replicas, s.Status.ReadyReplicas,
			s.Status.UpdatedReplicas, s.Status.CurrentRevision, s.Status.UpdateRevision, s.Annotations)
	}
	var pods corev1.PodList
	if err := c.List(ctx, &pods, client.InNamespace(ns)); err != nil {
		return err.Error()
	}
	for _, p := range pods.Items {
		ready := false
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady {
				ready = cond.Status == corev1.ConditionTrue
			}
		}
		fmt.Fprintf(&b, "Pod %s: phase %s, ready %t, node %q, deleting %t, revision %s\n",
			p.Name, p.Status.Phase, ready, p.Spec.NodeName, p.DeletionTimestamp != nil, p.Labels[appsv1.ControllerRevisionHashLabelKey])
	}
	return b.String()
}

func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
