// Package rbac says what an operator built on opkit's reconcilers needs
// from Kubernetes RBAC, and writes it as manifests.
//
// Each reconciler derives its Permissions from its configuration alone (the
// kinds it applies with the verbs the object engine uses, the kinds it
// reads or watches, its own resource with its status, impersonation where
// it is configured): reconciler.Reconciler.Permissions and
// component.Reconciler.Permissions. Manifests turns them into a
// ClusterRole and its binding for an operator that sees every namespace, or
// a Role and RoleBinding per namespace (and a ClusterRole only for what is
// cluster-scoped) for one restricted to some, plus the Role of leader
// election in the operator's own namespace.
//
//	p, err := r.Permissions(scheme, nil)
//	objs, err := rbac.Manifests(p, rbac.ManifestOptions{Name: "kafka-operator", ServiceAccount: "kafka-operator", Namespace: "kafka-system", LeaderElection: true})
package rbac
