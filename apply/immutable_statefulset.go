package apply

import (
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// preserveStatefulSet keeps selector, serviceName, volumeClaimTemplates and
// podManagementPolicy, and keeps the pod template's volume mounts coherent
// with the claims that actually exist.
func preserveStatefulSet(live, want *appsv1.StatefulSet) preservedFields {
	var fields preservedFields
	if want.Spec.Selector != nil && !equality.Semantic.DeepEqual(want.Spec.Selector, live.Spec.Selector) {
		fields = fields.add("spec.selector", live.Spec.Selector, want.Spec.Selector)
	}
	if want.Spec.ServiceName != "" && want.Spec.ServiceName != live.Spec.ServiceName {
		fields = fields.add("spec.serviceName", live.Spec.ServiceName, want.Spec.ServiceName)
	}
	if want.Spec.PodManagementPolicy != "" && want.Spec.PodManagementPolicy != live.Spec.PodManagementPolicy {
		fields = fields.add("spec.podManagementPolicy", live.Spec.PodManagementPolicy, want.Spec.PodManagementPolicy)
	}
	if w, l := comparableClaims(want.Spec.VolumeClaimTemplates, live.Spec.VolumeClaimTemplates); !equality.Semantic.DeepEqual(w, l) {
		fields = fields.add("spec.volumeClaimTemplates", l, w)
	}
	want.Spec.Selector = live.Spec.Selector
	want.Spec.ServiceName = live.Spec.ServiceName
	want.Spec.PodManagementPolicy = live.Spec.PodManagementPolicy
	want.Spec.VolumeClaimTemplates = live.Spec.VolumeClaimTemplates
	reconcileMounts(&want.Spec.Template.Spec, &live.Spec.Template.Spec, live.Spec.VolumeClaimTemplates)
	return fields
}

// comparableClaims returns copies of the claim templates as the desired
// object states them: the server fills in volumeMode, apiVersion/kind and a
// status, which count only when the desired template of the same name
// states them too.
func comparableClaims(want, live []corev1.PersistentVolumeClaim) (w, l []corev1.PersistentVolumeClaim) {
	statesMode := map[string]bool{}
	for i := range want {
		c := want[i].DeepCopy()
		// A claim template's kind and apiVersion say nothing: one side may
		// state them and the other not (a typed read leaves them empty).
		c.Status, c.TypeMeta = corev1.PersistentVolumeClaimStatus{}, metav1.TypeMeta{}
		statesMode[c.Name] = c.Spec.VolumeMode != nil
		w = append(w, *c)
	}
	for i := range live {
		c := live[i].DeepCopy()
		c.Status, c.TypeMeta = corev1.PersistentVolumeClaimStatus{}, metav1.TypeMeta{}
		if !statesMode[c.Name] {
			c.Spec.VolumeMode = nil
		}
		l = append(l, *c)
	}
	return w, l
}

// reconcileMounts drops mounts of claims that will not exist (unless a pod
// volume backs them) and restores, from the live template, mounts of
// preserved claims that the desired template dropped, keyed by mount path.
func reconcileMounts(want, live *corev1.PodSpec, claims []corev1.PersistentVolumeClaim) {
	claimNames := map[string]bool{}
	for _, c := range claims {
		claimNames[c.Name] = true
	}
	volumes := map[string]bool{}
	for _, v := range want.Volumes {
		volumes[v.Name] = true
	}
	fix := func(wc []corev1.Container, lc []corev1.Container) {
		for i := range wc {
			c := &wc[i]
			c.VolumeMounts = slices.DeleteFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool {
				return !claimNames[m.Name] && !volumes[m.Name]
			})
			j := slices.IndexFunc(lc, func(l corev1.Container) bool { return l.Name == c.Name })
			if j < 0 {
				continue
			}
			for _, lm := range lc[j].VolumeMounts {
				if !claimNames[lm.Name] || volumes[lm.Name] {
					continue
				}
				if !slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == lm.MountPath }) {
					c.VolumeMounts = append(c.VolumeMounts, lm)
				}
			}
		}
	}
	fix(want.Containers, live.Containers)
	fix(want.InitContainers, live.InitContainers)
}

// preservePVC keeps a claim's spec except its storage request and volume
// attributes class, the fields the API server lets change; other stated
// differences are reported.
func preservePVC(live, want *corev1.PersistentVolumeClaim) preservedFields {
	var fields preservedFields
	w := want.Spec.DeepCopy()
	l := live.Spec.DeepCopy()
	w.Resources, l.Resources = corev1.VolumeResourceRequirements{}, corev1.VolumeResourceRequirements{}
	w.VolumeAttributesClassName, l.VolumeAttributesClassName = nil, nil
	if w.VolumeMode == nil {
		l.VolumeMode = nil
	}
	if w.StorageClassName == nil {
		l.StorageClassName = nil
	}
	if w.VolumeName == "" {
		l.VolumeName = ""
	}
	if !equality.Semantic.DeepEqual(w, l) {
		fields = fields.add("spec", l, w)
	}
	requests := want.Spec.Resources.Requests
	vac := want.Spec.VolumeAttributesClassName
	want.Spec = *live.Spec.DeepCopy()
	want.Spec.Resources.Requests = requests
	if vac != nil {
		want.Spec.VolumeAttributesClassName = vac
	}
	return fields
}
