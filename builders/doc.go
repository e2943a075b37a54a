// Package builders constructs the Kubernetes objects of a role-group
// product: pure functions and fluent builders that never talk to the API
// server.
//
// A Scope names whose object is built (cluster, role or role group) and
// supplies the namespace, the bounded name (RoleGroupResourceName) and the
// labels (Scope.Labels, Scope.SelectorLabels). The builders take a Scope and
// return fresh typed objects that share no memory with their inputs:
//
//	scope := builders.Scope{Namespace: ns, Cluster: "prod", Role: "server", RoleGroup: "default"}
//	sts, err := builders.NewStatefulSet(scope, corev1.Container{Name: "main"}).
//		WithImage(image, corev1.PullIfNotPresent).
//		WithConfig(foldedConfig, decodedAffinity).
//		WithDataVolume(builders.DataVolume{MountPath: "/data"}).
//		WithEnvOverrides(overrides.EnvOverrides).
//		WithPodOverrides(podOverrideLayers...).
//		Build()
//	headless := builders.NewHeadlessService(scope).WithPorts(ports...).Build()
//
// Input that a user got wrong (an unparsable gracefulShutdownTimeout, a pod
// override that would displace a framework volume, ...) is reported as a
// *ValidationError; find it with errors.As.
//
// Config files for a ConfigMap are rendered by RenderConfigFile, which picks
// Java properties, Hadoop XML, YAML, env or INI from the file's extension.
package builders
