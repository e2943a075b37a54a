package reconciler

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RoleGroupObjects are the objects of one role group. The reconciler owns
// the name of each fixed slot (ConfigMap, StatefulSet and Service are
// named BuildContext.ResourceName(); the headless and metrics Services add
// "-headless" and "-metrics") and checks it before anything is applied:
// the orphan cleaner reclaims the slots by those names, so an object under
// another name would outlive its role group. Extras are named by the
// product; they must sit in the cluster's namespace and carry the group's
// labels to be reclaimed with it.
type RoleGroupObjects struct {
	// ConfigMap holds the group's config files. Required.
	ConfigMap *corev1.ConfigMap
	// HeadlessService gives each pod a stable DNS name. Required.
	HeadlessService *corev1.Service
	// Service is the client Service; nil for none.
	Service *corev1.Service
	// MetricsService exposes metrics to Prometheus; nil for none.
	MetricsService *corev1.Service
	// StatefulSet runs the pods. Required.
	StatefulSet *appsv1.StatefulSet
	// PodDisruptionBudget is an extra budget for this group alone; the
	// role's budget, spanning its groups, is the reconciler's. Nil for none.
	PodDisruptionBudget *policyv1.PodDisruptionBudget
	// Extras are further objects of the group, applied before the
	// StatefulSet (they are usually what its pods need).
	Extras []client.Object
}

// RoleGroupHandler builds a role group's objects from its build context.
// One handler serves every cluster an operator reconciles, concurrently:
// keep nothing per cluster in it.
type RoleGroupHandler[CR Cluster] interface {
	BuildRoleGroup(ctx context.Context, cr CR, bc *BuildContext) (*RoleGroupObjects, error)
}

// RoleGroupHandlerFunc adapts a function to RoleGroupHandler.
type RoleGroupHandlerFunc[CR Cluster] func(ctx context.Context, cr CR, bc *BuildContext) (*RoleGroupObjects, error)

// BuildRoleGroup calls f.
func (f RoleGroupHandlerFunc[CR]) BuildRoleGroup(ctx context.Context, cr CR, bc *BuildContext) (*RoleGroupObjects, error) {
	return f(ctx, cr, bc)
}
