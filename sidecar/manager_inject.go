package sidecar

import (
	corev1 "k8s.io/api/core/v1"
)

// Inject runs every enabled provider on spec in (phase, name) order. It is
// all or nothing: when a provider fails, or two additions collide, spec is
// left as it was and the error is an *InjectError naming the provider.
func (m *Manager) Inject(spec *corev1.PodSpec, target Target) error {
	work := spec.DeepCopy()
	for _, p := range m.ordered() {
		before := names(work)
		if err := p.Inject(work, target); err != nil {
			return &InjectError{Provider: p.Name(), Err: err}
		}
		if err := newDuplicate(before, names(work)); err != nil {
			return &InjectError{Provider: p.Name(), Err: err}
		}
	}
	*spec = *work
	return nil
}

// podNames counts the container and volume names of a pod spec.
type podNames struct {
	containers map[string]int
	volumes    map[string]int
}

func names(spec *corev1.PodSpec) podNames {
	n := podNames{containers: map[string]int{}, volumes: map[string]int{}}
	for _, c := range spec.InitContainers {
		n.containers[c.Name]++
	}
	for _, c := range spec.Containers {
		n.containers[c.Name]++
	}
	for _, v := range spec.Volumes {
		n.volumes[v.Name]++
	}
	return n
}

// newDuplicate returns a *ConflictError for a container or volume name that
// a provider made appear twice. Duplicates the spec already had are not the
// provider's doing and are left to the API server.
func newDuplicate(before, after podNames) error {
	for _, name := range sortedKeys(after.containers) {
		if n := after.containers[name]; n > 1 && n > before.containers[name] {
			return &ConflictError{Kind: "container", Name: name}
		}
	}
	for _, name := range sortedKeys(after.volumes) {
		if n := after.volumes[name]; n > 1 && n > before.volumes[name] {
			return &ConflictError{Kind: "volume", Name: name}
		}
	}
	return nil
}
