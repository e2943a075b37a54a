package builders

import (
	"errors"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Build returns the StatefulSet, or every error found, joined (see
// ValidationError; an injector's own errors are returned as they are).
//
// The pod template is assembled in this order, each step over the previous
// one: the product's containers, volumes and settings; the folded config
// and the overrides of env and args; the injectors (sidecars); the pod
// overrides; then the restricted security defaults, which fill only unset
// fields and so reach containers the injectors and the overrides added;
// finally the selector labels are re-asserted so the selector keeps
// matching whatever the overrides did.
func (b *StatefulSetBuilder) Build() (*appsv1.StatefulSet, error) {
	name := b.scope.ResourceName()
	template, claims, errs := b.podTemplate()
	if template == nil {
		return nil, errors.Join(errs...)
	}
	target := PodTarget{Scope: b.scope, MainContainer: b.main}
	for _, inj := range b.injectors {
		if err := inj.Inject(&template.Spec, target); err != nil {
			return nil, errors.Join(append(errs, err)...)
		}
	}
	merged, err := ApplyPodOverrides(b.scope, template, claimNames(claims), b.podOverrides...)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	ApplyRestrictedDefaults(&merged.Spec)
	if merged.Labels == nil {
		merged.Labels = map[string]string{}
	}
	maps.Copy(merged.Labels, b.scope.SelectorLabels())

	sts := &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: b.scope.objectMeta(name),
		Spec: appsv1.StatefulSetSpec{
			Replicas:             b.replicas,
			Selector:             &metav1.LabelSelector{MatchLabels: b.scope.SelectorLabels()},
			ServiceName:          HeadlessServiceName(name),
			PodManagementPolicy:  b.policy,
			Template:             *merged,
			VolumeClaimTemplates: claims,
		},
	}
	return sts.DeepCopy(), nil
}

// podTemplate assembles the pod template before injectors and pod
// overrides. A nil template means the product's own declaration is broken
// and nothing further can be checked.
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
		return nil, nil, []error{operatorError("containers", "the main container %q is not among the containers", b.main)}
	}
	var errs []error
	if b.configMount != "" {
		spec.Volumes = append(spec.Volumes, corev1.Volume{Name: ConfigVolumeName, VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: b.scope.ResourceName()}}}})
		main.VolumeMounts = append(main.VolumeMounts, corev1.VolumeMount{Name: ConfigVolumeName, MountPath: b.configMount, ReadOnly: true})
	}
	errs = append(errs, duplicateVolumes(spec.Volumes)...)
	if b.pullSecret != "" {
		spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: b.pullSecret}}
	}
	if b.image != "" {
		main.Image = b.image
	}
	if b.pullPolicy != "" {
		main.ImagePullPolicy = b.pullPolicy
	}
	applyResources(main, b.config)
	main.Env = mergeEnv(append(main.Env, b.env...), b.envOverrides)
	main.Args = append(main.Args, b.cliOverrides...)
	grace, err := b.terminationGracePeriod()
	if err != nil {
		errs = append(errs, err)
	}
	spec.TerminationGracePeriodSeconds = grace
	claims, err := b.dataClaims(main)
	if err != nil {
		errs = append(errs, err)
	}
	return &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: b.scope.Labels()},
		Spec:       spec,
	}, claims, errs
}

// duplicateVolumes reports volume names declared twice.
func duplicateVolumes(vs []corev1.Volume) []error {
	seen := map[string]bool{}
	var errs []error
	for _, v := range vs {
		if seen[v.Name] {
			errs = append(errs, operatorError("volumes["+v.Name+"]", "the volume is declared twice"))
		}
		seen[v.Name] = true
	}
	return errs
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
