// Package builders constructs the Kubernetes objects of a role-group
// product: pure functions and fluent builders that never talk to the API
// server.
//
// A Scope names whose object is built (cluster, role or role group) and
// supplies the namespace, the bounded name (RoleGroupResourceName) and the
// labels; it is the one place selector labels come from (SelectorLabels,
// RoleSelectorLabels, ClusterSelectorLabels). The builders take a Scope and
// return fresh typed objects that share no memory with their inputs; every
// Build returns (object, error):
//
//	group := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default", ProductName: "zookeeper"}
//	sts, err := builders.NewStatefulSet(group, corev1.Container{Name: "main"}).
//		WithImage(image, corev1.PullIfNotPresent).
//		WithConfig(foldedConfig, decodedAffinity).
//		WithConfigVolume("/opkit/config").
//		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
//		WithEnvOverrides(overrides.EnvOverrides).
//		WithCliOverrides(overrides.CliOverrides...).
//		WithInjectors(sidecars). // before the pod overrides
//		WithPodOverrides(podOverrideLayers...).
//		Build()
//	headless, err := builders.NewHeadlessService(group).WithPorts(ports...).Build()
//	pdb := builders.NewPodDisruptionBudget(group.RoleScope(), roleConfig.PodDisruptionBudget)
//
// Input someone got wrong (an unparsable gracefulShutdownTimeout, a pod
// override that would displace a framework volume, a config entry its
// format cannot hold, a Service without ports) is a *ValidationError of
// class failure.ErrInvalid that says whose mistake it is (failure.AuthorOf)
// and names the field as its author wrote it (failure.FieldOf), e.g.
// "spec.roles.server.roleGroups.default.podOverrides.spec.containers[name=main].volumeMounts[mountPath=/data]".
//
// Config files for a ConfigMap are rendered by RenderConfigFile, which picks
// Java properties (package properties, the one properties encoder), Hadoop
// XML, YAML, env or INI from the file's extension. HardenContainer is the
// one container hardening rule; the sidecar module uses it too.
package builders
