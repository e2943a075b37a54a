package sidecar

import (
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Container returns the container of spec called name, or nil. Providers
// use it to find the main container by name rather than by position.
func Container(spec *corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i]
		}
	}
	return nil
}

// AddContainer appends c to spec's containers, refusing a name the pod
// already uses with a *ConflictError.
func AddContainer(spec *corev1.PodSpec, c corev1.Container) error {
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for _, existing := range cs {
			if existing.Name == c.Name {
				return &ConflictError{Kind: "container", Name: c.Name}
			}
		}
	}
	spec.Containers = append(spec.Containers, c)
	return nil
}

// AddVolume appends v to spec's volumes, refusing a name the pod already
// uses with a *ConflictError.
func AddVolume(spec *corev1.PodSpec, v corev1.Volume) error {
	for _, existing := range spec.Volumes {
		if existing.Name == v.Name {
			return &ConflictError{Kind: "volume", Name: v.Name}
		}
	}
	spec.Volumes = append(spec.Volumes, v)
	return nil
}

// AddPort appends p to c's ports, refusing a name or number c already
// exposes with a *ConflictError.
func AddPort(c *corev1.Container, p corev1.ContainerPort) error {
	for _, existing := range c.Ports {
		if existing.Name == p.Name || existing.ContainerPort == p.ContainerPort {
			return &ConflictError{Kind: "port", Name: p.Name, Container: c.Name}
		}
	}
	c.Ports = append(c.Ports, p)
	return nil
}

// AddVolumeMount appends m to c's mounts, refusing a mount path c already
// uses with a *ConflictError.
func AddVolumeMount(c *corev1.Container, m corev1.VolumeMount) error {
	for _, existing := range c.VolumeMounts {
		if existing.MountPath == m.MountPath {
			return &ConflictError{Kind: "volumeMount", Name: m.MountPath, Container: c.Name}
		}
	}
	c.VolumeMounts = append(c.VolumeMounts, m)
	return nil
}

// AppendEnvValue appends value to the space-separated variable name of c,
// creating it when absent: JVM option variables such as JAVA_TOOL_OPTIONS
// are extended this way so the product's own options survive. A variable
// set from a reference (valueFrom) cannot be extended and is a
// *ConflictError.
func AppendEnvValue(c *corev1.Container, name, value string) error {
	for i := range c.Env {
		if c.Env[i].Name != name {
			continue
		}
		if c.Env[i].ValueFrom != nil {
			return &ConflictError{Kind: "env", Name: name, Container: c.Name}
		}
		c.Env[i].Value = strings.TrimSpace(c.Env[i].Value + " " + value)
		return nil
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: value})
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
