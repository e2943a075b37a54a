package builders

import (
	"cmp"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// The folded config carries no record of the layer that stated a value, so
// its checks name the role group's field, the most specific place a user
// can fix it. configfold, which sees the layers, already rejects a bad
// value in any layer naming that layer; these checks catch what reaches the
// builder without it.

// applyResources sets the main container's requests and limits from the
// folded config: cpu.min is the request, cpu.max the limit, and memory.limit
// both (memory cannot be taken back from a running process, so a request
// below the limit only invites an eviction).
func applyResources(c *corev1.Container, config *commonsv1alpha1.RoleGroupConfigSpec) {
	if config == nil || config.Resources == nil {
		return
	}
	r := config.Resources
	if r.CPU != nil && r.CPU.Min != nil {
		setQuantity(&c.Resources.Requests, corev1.ResourceCPU, *r.CPU.Min)
	}
	if r.CPU != nil && r.CPU.Max != nil {
		setQuantity(&c.Resources.Limits, corev1.ResourceCPU, *r.CPU.Max)
	}
	if r.Memory != nil && r.Memory.Limit != nil {
		setQuantity(&c.Resources.Requests, corev1.ResourceMemory, *r.Memory.Limit)
		setQuantity(&c.Resources.Limits, corev1.ResourceMemory, *r.Memory.Limit)
	}
}

func setQuantity(list *corev1.ResourceList, name corev1.ResourceName, q resource.Quantity) {
	if *list == nil {
		*list = corev1.ResourceList{}
	}
	(*list)[name] = q.DeepCopy()
}

// terminationGracePeriod converts config.gracefulShutdownTimeout, a Go
// duration, to whole seconds, rounding up so a pod never gets less time
// than asked. Unset returns nil (the Kubernetes default).
func (b *StatefulSetBuilder) terminationGracePeriod() (*int64, error) {
	const field = "config.gracefulShutdownTimeout"
	if b.config == nil || b.config.GracefulShutdownTimeout == nil {
		return nil, nil
	}
	raw := *b.config.GracefulShutdownTimeout
	d, err := time.ParseDuration(raw)
	if err != nil {
		verr := layerError(b.scope, commonsv1alpha1.LayerRoleGroup, field, "%q is not a duration such as \"30s\" or \"2m\"", raw)
		verr.Err = err
		return nil, verr
	}
	if d <= 0 {
		return nil, layerError(b.scope, commonsv1alpha1.LayerRoleGroup, field, "%q is not positive", raw)
	}
	secs := int64(math.Ceil(d.Seconds()))
	return &secs, nil
}

// dataClaims returns the data volume's claim template, and mounts it in
// main, when the role declares a data volume.
func (b *StatefulSetBuilder) dataClaims(main *corev1.Container) ([]corev1.PersistentVolumeClaim, error) {
	if b.data == nil {
		return nil, nil
	}
	const field = "config.resources.storage.capacity"
	name := cmp.Or(b.data.Name, DefaultDataVolumeName)
	var storage *commonsv1alpha1.StorageResource
	if b.config != nil && b.config.Resources != nil {
		storage = b.config.Resources.Storage
	}
	if storage == nil || storage.Capacity == nil {
		return nil, layerError(b.scope, commonsv1alpha1.LayerRoleGroup, field,
			"required: the role keeps data on volume %q", name)
	}
	if storage.Capacity.Sign() <= 0 {
		return nil, layerError(b.scope, commonsv1alpha1.LayerRoleGroup, field, "%s is not positive", storage.Capacity.String())
	}
	claim := corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: b.scope.SelectorLabels()},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: storage.Capacity.DeepCopy()},
			},
		},
	}
	if storage.StorageClass != nil {
		class := *storage.StorageClass
		claim.Spec.StorageClassName = &class
	}
	main.VolumeMounts = append(main.VolumeMounts, corev1.VolumeMount{Name: name, MountPath: b.data.MountPath})
	return []corev1.PersistentVolumeClaim{claim}, nil
}
