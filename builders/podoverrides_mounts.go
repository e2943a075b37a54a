package builders

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// mountRef is one volumeMount of a container of a pod template.
type mountRef struct {
	list, container, mountPath, volume string
}

func (r mountRef) key() string { return r.list + "/" + r.container + "/" + r.mountPath }

// field is the mount's path within a layer's podOverrides.
func (r mountRef) field() string {
	return fmt.Sprintf("podOverrides.spec.%s[name=%s].volumeMounts[mountPath=%s]", r.list, r.container, r.mountPath)
}

// mountIndex maps every mount of t to the volume mounted there.
func mountIndex(t *corev1.PodTemplateSpec) map[string]string {
	idx := map[string]string{}
	for _, ref := range mountsOf(t) {
		idx[ref.key()] = ref.volume
	}
	return idx
}

// mountsOf returns the mounts of t's init containers and containers,
// sorted by key.
func mountsOf(t *corev1.PodTemplateSpec) []mountRef {
	var refs []mountRef
	for _, l := range []struct {
		name string
		cs   []corev1.Container
	}{{"initContainers", t.Spec.InitContainers}, {"containers", t.Spec.Containers}} {
		for _, c := range l.cs {
			for _, m := range c.VolumeMounts {
				refs = append(refs, mountRef{list: l.name, container: c.Name, mountPath: m.MountPath, volume: m.Name})
			}
		}
	}
	slices.SortFunc(refs, func(a, b mountRef) int { return cmp.Compare(a.key(), b.key()) })
	return refs
}

// removedMounts reports framework mounts that the merged template no longer
// has, blamed on the layer after which each went missing: a layer replacing
// a container's whole volumeMounts list (or deleting a mount) takes the
// framework's volume away from the container as surely as displacing it.
func removedMounts(scope Scope, owned map[string]string, removedBy map[string]commonsv1alpha1.Layer, merged *corev1.PodTemplateSpec) []error {
	now := mountIndex(merged)
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(owned)) {
		if _, ok := now[key]; ok {
			continue
		}
		list, rest, _ := strings.Cut(key, "/")
		container, mountPath, _ := strings.Cut(rest, "/")
		ref := mountRef{list: list, container: container, mountPath: mountPath, volume: owned[key]}
		errs = append(errs, layerError(scope, removedBy[key], ref.field(),
			"removes the framework's mount of volume %q at %s; add your mounts beside it instead of replacing the list",
			ref.volume, ref.mountPath))
	}
	return errs
}

// undeclaredMounts reports mounts of the merged template whose volume the
// pod does not declare, unless the built template already had that mount
// (then the product, not the override, is at fault). This catches both a
// mount an override added and a volume an override deleted. Each is blamed
// on the highest layer that states the mount, else on the highest that
// states the volume, else on the highest layer applied.
func undeclaredMounts(scope Scope, base, merged *corev1.PodTemplateSpec, claimVolumes []string, applied []decodedOverride) []error {
	dangling := func(t *corev1.PodTemplateSpec) []mountRef {
		declared := map[string]bool{}
		for _, v := range t.Spec.Volumes {
			declared[v.Name] = true
		}
		for _, c := range claimVolumes {
			declared[c] = true
		}
		var refs []mountRef
		for _, ref := range mountsOf(t) {
			if !declared[ref.volume] {
				refs = append(refs, ref)
			}
		}
		return refs
	}
	already := map[mountRef]bool{}
	for _, ref := range dangling(base) {
		already[ref] = true
	}
	var errs []error
	for _, ref := range dangling(merged) {
		if already[ref] || len(applied) == 0 {
			continue
		}
		errs = append(errs, layerError(scope, blameMount(ref, applied), ref.field(),
			"volume %q mounted at %s is not a volume of the pod; declare it in podOverrides.spec.volumes", ref.volume, ref.mountPath))
	}
	return errs
}

// blameMount returns the layer that wrote ref, or deleted its volume.
func blameMount(ref mountRef, applied []decodedOverride) commonsv1alpha1.Layer {
	for _, a := range slices.Backward(applied) {
		if slices.Contains(mountsOf(a.patch), ref) {
			return a.layer
		}
	}
	for _, a := range slices.Backward(applied) {
		for _, v := range a.patch.Spec.Volumes {
			if v.Name == ref.volume {
				return a.layer
			}
		}
	}
	return applied[len(applied)-1].layer
}
