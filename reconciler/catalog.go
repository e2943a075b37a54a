package reconciler

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/productlogging"
)

// DefaultConfigMountPath is where the main container sees its role group's
// ConfigMap when the declaration names no other path.
const DefaultConfigMountPath = "/opkit/config"

// RoleDeclaration is everything a product knows about one of its roles, as
// data. The cluster resource's author can state none of it (they configure
// the role through spec.roles), with two exceptions folded beneath what
// they write: Image (beneath spec.image) and ConfigDefaults (beneath the
// role's and role group's config).
type RoleDeclaration struct {
	// Image is the role's image layer: above the operator's defaults,
	// beneath the cluster resource's spec.image, folded per field.
	Image *commonsv1alpha1.ImageSpec
	// MainContainer is the name of the product's primary container. Empty
	// means the role's name.
	MainContainer string
	// Command and Args start the main container.
	Command, Args []string
	// ContainerPorts are the main container's ports.
	ContainerPorts []corev1.ContainerPort
	// ServicePorts are the ports of the role group's client Service; none
	// means the group has no client Service (the headless Service, which
	// gives every pod its DNS name, always exists).
	ServicePorts []corev1.ServicePort
	// Metrics, when set, gets the role group a metrics Service that
	// Prometheus discovers.
	Metrics *MetricsEndpoint
	// Lifecycle and the probes of the main container.
	Lifecycle                                   *corev1.Lifecycle
	ReadinessProbe, LivenessProbe, StartupProbe *corev1.Probe
	// DataVolume, when set, gives each pod a persistent volume sized by the
	// folded config.resources.storage.
	DataVolume *builders.DataVolume
	// ConfigMountPath is where the main container sees the role group's
	// ConfigMap. Empty means DefaultConfigMountPath.
	ConfigMountPath string
	// PublishNotReadyAddresses makes the headless Service publish pods
	// before they are ready (products whose members find each other while
	// starting).
	PublishNotReadyAddresses bool
	// Env are environment variables of the main container, beneath the
	// user's envOverrides.
	Env []corev1.EnvVar
	// LogProducers are the containers that log through a framework; the
	// reconciler renders their logging config files into the role group's
	// ConfigMap from the folded config.logging, and feeds the Vector agent.
	LogProducers []productlogging.Producer
	// OwnsVectorConfig says the product writes vector.yaml itself (into
	// the role group's ConfigMap), so the agent may run without an
	// aggregator named on the cluster resource.
	OwnsVectorConfig bool
	// ConfigDefaults is the lowest layer of the role group config, beneath
	// the role's and the role group's.
	ConfigDefaults *commonsv1alpha1.RoleGroupConfigSpec
	// DisabledSidecars names registered sidecar providers this role does
	// not run.
	DisabledSidecars []string
	// Optional silences the UnusedRoleDeclaration warning when a cluster
	// does not configure the role.
	Optional bool
}

// MetricsEndpoint is where a role's pods serve metrics.
type MetricsEndpoint struct {
	// Port is the metrics Service's port; its TargetPort names or numbers
	// the container port.
	Port corev1.ServicePort
	// Path is the HTTP path of the metrics, "/metrics" when empty.
	Path string
}

// mainContainerName returns the declared main container's name, defaulted.
func (d *RoleDeclaration) mainContainerName(role string) string {
	if d.MainContainer != "" {
		return d.MainContainer
	}
	return role
}

// configMountPath returns the config mount path, defaulted.
func (d *RoleDeclaration) configMountPath() string {
	if d.ConfigMountPath != "" {
		return d.ConfigMountPath
	}
	return DefaultConfigMountPath
}

// Catalog maps a role name to its declaration.
type Catalog map[string]RoleDeclaration

// RoleProvider declares a product's roles for one cluster resource, once
// per pass, with the resource in hand: a value that depends on the
// resource (a port that moves when TLS is on) is computed here, never
// stored on a handler shared by every cluster. An error of the
// failure.ErrRequeue class waits without reporting the cluster degraded;
// any other fails the pass.
type RoleProvider[CR Cluster] interface {
	DeclareRoles(ctx context.Context, cr CR) (Catalog, error)
}

// RoleProviderFunc adapts a function to RoleProvider.
type RoleProviderFunc[CR Cluster] func(ctx context.Context, cr CR) (Catalog, error)

// DeclareRoles calls f.
func (f RoleProviderFunc[CR]) DeclareRoles(ctx context.Context, cr CR) (Catalog, error) {
	return f(ctx, cr)
}

// StaticRoles is a RoleProvider for a catalog that does not depend on the
// resource.
func StaticRoles[CR Cluster](c Catalog) RoleProvider[CR] {
	return RoleProviderFunc[CR](func(context.Context, CR) (Catalog, error) { return c, nil })
}
