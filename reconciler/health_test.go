package reconciler

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

func TestNotSettled(t *testing.T) {
	tests := []struct {
		name   string
		gen    int64
		status appsv1.StatefulSetStatus
		want   string
	}{
		{"settled", 2, appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, UpdatedReplicas: 3, CurrentRevision: "a", UpdateRevision: "a"}, ""},
		{"stale status", 3, appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, UpdatedReplicas: 3}, "StatefulSet change not observed yet"},
		{"scaling", 2, appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 1, UpdatedReplicas: 3}, "1 of 3 replicas ready"},
		{"rolling", 2, appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, UpdatedReplicas: 1, CurrentRevision: "a", UpdateRevision: "b"}, "rolling out, 1 of 3 replicas updated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sts := &appsv1.StatefulSet{Status: tt.status}
			sts.Generation = tt.gen
			if got := notSettled(sts, 3); got != tt.want {
				t.Errorf("notSettled = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPodFailure(t *testing.T) {
	waiting := func(reason string) corev1.PodStatus {
		return corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "main", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: "back-off"}}}}}
	}
	tests := []struct {
		name   string
		status corev1.PodStatus
		want   string
	}{
		{"running", corev1.PodStatus{Phase: corev1.PodRunning}, ""},
		{"starting is not failing", waiting("ContainerCreating"), ""},
		{"crash loop", waiting("CrashLoopBackOff"), "container main CrashLoopBackOff: back-off"},
		{"bad image", waiting("InvalidImageName"), "container main InvalidImageName: back-off"},
		{"failed", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"}, "failed: Evicted"},
		{"unschedulable", corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, Message: "0/3 nodes"}}}, "unschedulable: 0/3 nodes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.invalid/x:1"}}}, Status: tt.status}
			if got := podFailure(pod); got != tt.want {
				t.Errorf("podFailure = %q, want %q", got, tt.want)
			}
			// The cache holds pods trimmed: the verdict is the same.
			slimPod(pod)
			if got := podFailure(pod); got != tt.want {
				t.Errorf("podFailure of the cached pod = %q, want %q", got, tt.want)
			}
			if len(pod.Spec.Containers) != 0 {
				t.Errorf("the cached pod keeps its spec: %+v", pod.Spec)
			}
		})
	}
}
