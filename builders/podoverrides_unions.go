package builders

import (
	corev1 "k8s.io/api/core/v1"
)

// clearSupersededUnions clears, in t, every union member that patch
// replaces. Strategic merge patch merges structs field by field, so a
// configMap volume overridden with an emptyDir would otherwise carry both
// sources, and the API server rejects such a pod.
func clearSupersededUnions(t, patch *corev1.PodTemplateSpec) {
	for _, pv := range patch.Spec.Volumes {
		if pv.VolumeSource == (corev1.VolumeSource{}) {
			continue
		}
		for i := range t.Spec.Volumes {
			if t.Spec.Volumes[i].Name == pv.Name {
				t.Spec.Volumes[i].VolumeSource = corev1.VolumeSource{}
			}
		}
	}
	clearContainerUnions(t.Spec.Containers, patch.Spec.Containers)
	clearContainerUnions(t.Spec.InitContainers, patch.Spec.InitContainers)
}

func clearContainerUnions(cs, patches []corev1.Container) {
	for _, p := range patches {
		c := findContainer(cs, p.Name)
		if c == nil {
			continue
		}
		for _, pe := range p.Env {
			if pe.Value == "" && pe.ValueFrom == nil {
				continue
			}
			for i := range c.Env {
				if c.Env[i].Name == pe.Name {
					c.Env[i].Value, c.Env[i].ValueFrom = "", nil
				}
			}
		}
		clearProbe(c.LivenessProbe, p.LivenessProbe)
		clearProbe(c.ReadinessProbe, p.ReadinessProbe)
		clearProbe(c.StartupProbe, p.StartupProbe)
		if c.Lifecycle != nil && p.Lifecycle != nil {
			clearHook(c.Lifecycle.PostStart, p.Lifecycle.PostStart)
			clearHook(c.Lifecycle.PreStop, p.Lifecycle.PreStop)
		}
	}
}

func clearProbe(c, p *corev1.Probe) {
	if c != nil && p != nil && p.ProbeHandler != (corev1.ProbeHandler{}) {
		c.ProbeHandler = corev1.ProbeHandler{}
	}
}

func clearHook(c, p *corev1.LifecycleHandler) {
	if c != nil && p != nil && *p != (corev1.LifecycleHandler{}) {
		*c = corev1.LifecycleHandler{}
	}
}
