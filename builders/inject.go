package builders

import corev1 "k8s.io/api/core/v1"

// PodTarget is the pod an injector adds to: the role group and its main
// container.
type PodTarget struct {
	// Scope is the role group: its namespace, cluster, role and group. Its
	// ResourceName is the name of the role group's ConfigMap.
	Scope Scope
	// MainContainer is the name of the product's primary container. Find
	// it by name, never by position.
	MainContainer string
}

// PodInjector adds containers, volumes and settings to a role group's pod
// spec, such as sidecars. The StatefulSet builder runs its injectors on the
// built template before the pod overrides are merged, so what they add is
// part of the template a user overrides (a sidecar's resources, for
// instance), and their mounts are framework mounts an override may not
// displace. The sidecar module's per-build plan implements it.
type PodInjector interface {
	// Inject adds to spec. It must leave spec unchanged when it fails.
	Inject(spec *corev1.PodSpec, target PodTarget) error
}
