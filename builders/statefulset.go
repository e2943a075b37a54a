package builders

import (
	"maps"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// DefaultDataVolumeName is the name of a role's data volume claim when its
// DataVolume names none.
const DefaultDataVolumeName = "data"

// ConfigVolumeName is the name of the volume WithConfigVolume adds: the
// role group's ConfigMap.
const ConfigVolumeName = "config"

// DataVolume declares that a role keeps data on a persistent volume: the
// StatefulSet gets a claim template, sized from the folded
// config.resources.storage, mounted in the main container.
type DataVolume struct {
	// Name is the claim template's name; empty means DefaultDataVolumeName.
	Name string
	// MountPath is where the main container sees the volume.
	MountPath string
}

// StatefulSetBuilder builds a role group's StatefulSet. Create it with
// NewStatefulSet, configure it with the With methods and call Build. The
// builder copies what it is given, and Build returns a fresh object each
// time, so neither the inputs nor an earlier result share memory with a
// result.
type StatefulSetBuilder struct {
	scope          Scope
	main           string
	replicas       *int32
	policy         appsv1.PodManagementPolicyType
	containers     []corev1.Container
	initContainers []corev1.Container
	volumes        []corev1.Volume
	configMount    string
	config         *commonsv1alpha1.RoleGroupConfigSpec
	affinity       *corev1.Affinity
	data           *DataVolume
	env            []corev1.EnvVar
	envOverrides   map[string]string
	cliOverrides   []string
	image          string
	pullPolicy     corev1.PullPolicy
	pullSecret     string
	serviceAccount string
	injectors      []PodInjector
	podOverrides   []PodOverride
}

// NewStatefulSet starts a StatefulSet for the scope's role group. main is
// the product's primary container; it is found again by its name, never by
// position, so containers added before or after it do not matter.
func NewStatefulSet(scope Scope, main corev1.Container) *StatefulSetBuilder {
	return &StatefulSetBuilder{
		scope:      scope,
		main:       main.Name,
		containers: []corev1.Container{*main.DeepCopy()},
		policy:     appsv1.ParallelPodManagement,
	}
}

// WithReplicas sets the number of pods. Unset leaves it to Kubernetes (1).
func (b *StatefulSetBuilder) WithReplicas(n int32) *StatefulSetBuilder {
	b.replicas = &n
	return b
}

// WithPodManagementPolicy replaces the default Parallel policy.
func (b *StatefulSetBuilder) WithPodManagementPolicy(p appsv1.PodManagementPolicyType) *StatefulSetBuilder {
	b.policy = p
	return b
}

// WithContainers adds containers beside the main one.
func (b *StatefulSetBuilder) WithContainers(cs ...corev1.Container) *StatefulSetBuilder {
	for i := range cs {
		b.containers = append(b.containers, *cs[i].DeepCopy())
	}
	return b
}

// WithInitContainers adds init containers.
func (b *StatefulSetBuilder) WithInitContainers(cs ...corev1.Container) *StatefulSetBuilder {
	for i := range cs {
		b.initContainers = append(b.initContainers, *cs[i].DeepCopy())
	}
	return b
}

// WithVolumes adds pod volumes. Their mount paths in the built template
// are framework-owned: a pod override may not mount something else there.
func (b *StatefulSetBuilder) WithVolumes(vs ...corev1.Volume) *StatefulSetBuilder {
	for i := range vs {
		b.volumes = append(b.volumes, *vs[i].DeepCopy())
	}
	return b
}

// WithConfigVolume mounts the role group's ConfigMap (named
// Scope.ResourceName, as NewConfigMap builds it) in the main container at
// mountPath, read-only, as the volume ConfigVolumeName: volume and mount in
// one call.
func (b *StatefulSetBuilder) WithConfigVolume(mountPath string) *StatefulSetBuilder {
	b.configMount = mountPath
	return b
}

// WithConfig applies the role group's folded config: resources of the main
// container, the data volume's size and class, and the termination grace
// period. affinity is config.affinity already decoded (the raw form in
// config is not read); nil leaves the pod's affinity unset.
func (b *StatefulSetBuilder) WithConfig(config *commonsv1alpha1.RoleGroupConfigSpec, affinity *corev1.Affinity) *StatefulSetBuilder {
	b.config = config.DeepCopy()
	b.affinity = affinity.DeepCopy()
	return b
}

// WithDataVolume declares the role's data volume. Without it the
// StatefulSet has no claim template, whatever the config's storage says.
func (b *StatefulSetBuilder) WithDataVolume(dv DataVolume) *StatefulSetBuilder {
	b.data = &dv
	return b
}

// WithEnv adds environment variables the product declares for the main
// container, after the container's own. A variable named again replaces
// the earlier one where it stands.
func (b *StatefulSetBuilder) WithEnv(env ...corev1.EnvVar) *StatefulSetBuilder {
	for i := range env {
		b.env = append(b.env, *env[i].DeepCopy())
	}
	return b
}

// WithEnvOverrides sets the user's folded envOverrides for the main
// container. An override replaces a declared variable of its name where it
// stands (valueFrom included); the others are appended, each after the
// variables its $(VAR) references name, else by name.
func (b *StatefulSetBuilder) WithEnvOverrides(env map[string]string) *StatefulSetBuilder {
	b.envOverrides = maps.Clone(env)
	return b
}

// WithCliOverrides sets the user's folded cliOverrides: extra command-line
// arguments appended to the main container's args, after the product's
// own. configfold has already picked the list of the highest layer that
// states one, so an empty list means none.
func (b *StatefulSetBuilder) WithCliOverrides(args ...string) *StatefulSetBuilder {
	b.cliOverrides = slices.Clone(args)
	return b
}

// WithImage sets the main container's image and pull policy (empty keeps
// the container's).
func (b *StatefulSetBuilder) WithImage(ref string, policy corev1.PullPolicy) *StatefulSetBuilder {
	b.image, b.pullPolicy = ref, policy
	return b
}

// WithImagePullSecret adds a docker-registry Secret to imagePullSecrets.
// Empty adds nothing.
func (b *StatefulSetBuilder) WithImagePullSecret(name string) *StatefulSetBuilder {
	b.pullSecret = name
	return b
}

// WithServiceAccountName sets the ServiceAccount the pods run as (see
// ServiceAccountName).
func (b *StatefulSetBuilder) WithServiceAccountName(name string) *StatefulSetBuilder {
	b.serviceAccount = name
	return b
}

// WithInjectors adds injectors (sidecars), run in order on the built
// template before the pod overrides; see PodInjector.
func (b *StatefulSetBuilder) WithInjectors(injectors ...PodInjector) *StatefulSetBuilder {
	b.injectors = append(b.injectors, injectors...)
	return b
}

// WithPodOverrides sets the user's podOverrides layers, lowest precedence
// first. They are strategic-merged over the built template, sidecars
// included, so the user wins; see ApplyPodOverrides for the rules.
func (b *StatefulSetBuilder) WithPodOverrides(layers ...PodOverride) *StatefulSetBuilder {
	for _, l := range layers {
		b.podOverrides = append(b.podOverrides, PodOverride{Layer: l.Layer, Patch: slices.Clone(l.Patch)})
	}
	return b
}
