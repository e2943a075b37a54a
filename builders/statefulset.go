package builders

import (
	"errors"
	"fmt"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// DefaultDataVolumeName is the name of a role's data volume claim when its
// DataVolume names none.
const DefaultDataVolumeName = "data"

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
	config         *commonsv1alpha1.RoleGroupConfigSpec
	affinity       *corev1.Affinity
	data           *DataVolume
	env            []corev1.EnvVar
	envOverrides   map[string]string
	image          string
	pullPolicy     corev1.PullPolicy
	pullSecret     string
	serviceAccount string
	podOverrides   [][]byte
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

// WithContainers adds containers beside the main one, e.g. sidecars.
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
// container. The user's envOverrides win over them.
func (b *StatefulSetBuilder) WithEnv(env ...corev1.EnvVar) *StatefulSetBuilder {
	for i := range env {
		b.env = append(b.env, *env[i].DeepCopy())
	}
	return b
}

// WithEnvOverrides sets the user's folded envOverrides for the main
// container.
func (b *StatefulSetBuilder) WithEnvOverrides(env map[string]string) *StatefulSetBuilder {
	b.envOverrides = maps.Clone(env)
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

// WithPodOverrides sets the user's podOverrides layers, lowest precedence
// first, each the JSON of a core/v1 PodTemplateSpec as written in the
// cluster resource. They are strategic-merged over the built template last,
// so the user wins; see ApplyPodOverrides for the rules.
func (b *StatefulSetBuilder) WithPodOverrides(layers ...[]byte) *StatefulSetBuilder {
	for _, l := range layers {
		b.podOverrides = append(b.podOverrides, append([]byte(nil), l...))
	}
	return b
}

// Build returns the StatefulSet, or an error joining every
// ValidationError found (see errors.As).
func (b *StatefulSetBuilder) Build() (*appsv1.StatefulSet, error) {
	name := b.scope.ResourceName()
	template, claims, errs := b.podTemplate()
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	template, errs = ApplyPodOverrides(template, claimNames(claims), b.podOverrides...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The selector must keep matching whatever the overrides did.
	if template.Labels == nil {
		template.Labels = map[string]string{}
	}
	maps.Copy(template.Labels, b.scope.SelectorLabels())

	sts := &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: b.scope.objectMeta(name),
		Spec: appsv1.StatefulSetSpec{
			Replicas:             b.replicas,
			Selector:             &metav1.LabelSelector{MatchLabels: b.scope.SelectorLabels()},
			ServiceName:          HeadlessServiceName(name),
			PodManagementPolicy:  b.policy,
			Template:             *template,
			VolumeClaimTemplates: claims,
		},
	}
	return sts.DeepCopy(), nil
}

// podTemplate assembles the pod template before pod overrides.
func (b *StatefulSetBuilder) podTemplate() (*corev1.PodTemplateSpec, []corev1.PersistentVolumeClaim, []error) {
	spec := corev1.PodSpec{
		Containers:         cloneContainers(b.containers),
		InitContainers:     cloneContainers(b.initContainers),
		ServiceAccountName: b.serviceAccount,
		Affinity:           b.affinity.DeepCopy(),
	}
	for i := range b.volumes {
		spec.Volumes = append(spec.Volumes, *b.volumes[i].DeepCopy())
	}
	main := findContainer(spec.Containers, b.main)
	if main == nil {
		return nil, nil, []error{fmt.Errorf("main container %q is not among the containers", b.main)}
	}
	if b.pullSecret != "" {
		spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: b.pullSecret}}
	}
	if b.image != "" {
		main.Image = b.image
	}
	if b.pullPolicy != "" {
		main.ImagePullPolicy = b.pullPolicy
	}
	var errs []error
	applyResources(main, b.config)
	main.Env = mergeEnv(append(main.Env, b.env...), b.envOverrides)
	grace, err := terminationGracePeriod(b.config)
	if err != nil {
		errs = append(errs, err)
	}
	spec.TerminationGracePeriodSeconds = grace
	claims, err := b.dataClaims(main)
	if err != nil {
		errs = append(errs, err)
	}
	ApplyRestrictedDefaults(&spec)
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: b.scope.Labels()},
		Spec:       spec,
	}, claims, errs
}

// findContainer returns the container called name, or nil.
func findContainer(cs []corev1.Container, name string) *corev1.Container {
	for i := range cs {
		if cs[i].Name == name {
			return &cs[i]
		}
	}
	return nil
}

func cloneContainers(cs []corev1.Container) []corev1.Container {
	if cs == nil {
		return nil
	}
	out := make([]corev1.Container, len(cs))
	for i := range cs {
		cs[i].DeepCopyInto(&out[i])
	}
	return out
}

func claimNames(claims []corev1.PersistentVolumeClaim) []string {
	names := make([]string, 0, len(claims))
	for _, c := range claims {
		names = append(names, c.Name)
	}
	return names
}
