package reconciler

import (
	corev1 "k8s.io/api/core/v1"
)

// slimPod trims a pod on its way into the cache to what the health check
// reads of it (podFailure): its metadata, phase, reason and conditions,
// and the name and state of each container. Its spec and the rest of its
// status are most of its size, and a cache holds every pod of every role
// group. A product that needs a pod whole reads it through the API reader.
func slimPod(p *corev1.Pod) {
	p.Spec = corev1.PodSpec{NodeName: p.Spec.NodeName}
	st := p.Status
	p.Status = corev1.PodStatus{
		Phase:                 st.Phase,
		Reason:                st.Reason,
		Message:               st.Message,
		Conditions:            st.Conditions,
		InitContainerStatuses: slimContainers(st.InitContainerStatuses),
		ContainerStatuses:     slimContainers(st.ContainerStatuses),
	}
}

func slimContainers(in []corev1.ContainerStatus) []corev1.ContainerStatus {
	if len(in) == 0 {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(in))
	for i, c := range in {
		out[i] = corev1.ContainerStatus{Name: c.Name, State: c.State, Ready: c.Ready, RestartCount: c.RestartCount, Started: c.Started}
	}
	return out
}
