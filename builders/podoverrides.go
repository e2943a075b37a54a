package builders

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// ApplyPodOverrides strategic-merges the podOverrides layers, lowest
// precedence first, over template and returns the result. Each layer is the
// JSON of a core/v1 PodTemplateSpec, taken as written so that patch
// directives and explicit nulls keep their meaning. template is not
// modified. claimVolumes names the StatefulSet's claim templates, which
// back mounts like volumes do.
//
// Before each layer, a member of a union the layer replaces is cleared in
// the template (a volume's source, an env var's value or valueFrom, a
// probe's or lifecycle hook's handler), so a replacement does not merge
// into a union with two members set.
//
// What would silently break the pod is reported instead of built, each as a
// *ValidationError whose Field starts with "podOverrides": a volumeMount at
// a mountPath where the built template mounts another volume (strategic
// merge keys mounts by path, so it would displace the framework's volume),
// and a volumeMount naming a volume the pod does not declare (added by an
// override, or left behind by one that deleted its volume). Mounting at a
// new path is fine. A layer that is not a PodTemplateSpec is a
// *ValidationError too.
func ApplyPodOverrides(template *corev1.PodTemplateSpec, claimVolumes []string, layers ...[]byte) (*corev1.PodTemplateSpec, []error) {
	current := template.DeepCopy()
	owned := mountIndex(current)
	var errs []error
	for i, layer := range layers {
		if len(layer) == 0 {
			continue
		}
		var patch corev1.PodTemplateSpec
		if err := json.Unmarshal(layer, &patch); err != nil {
			errs = append(errs, &ValidationError{Field: "podOverrides", Message: fmt.Sprintf("layer %d is not a pod template", i), Err: err})
			continue
		}
		refs := mountsOf(&patch)
		bad := false
		for _, ref := range refs {
			if vol, ok := owned[ref.key()]; ok && vol != ref.volume {
				errs = append(errs, validationErrorf(ref.field(),
					"mounting volume %q at %s would displace the framework's volume %q mounted there; mount it at another path",
					ref.volume, ref.mountPath, vol))
				bad = true
			}
		}
		if bad {
			continue
		}
		clearSupersededUnions(current, &patch)
		merged, err := mergeLayer(current, layer)
		if err != nil {
			errs = append(errs, &ValidationError{Field: "podOverrides", Message: fmt.Sprintf("layer %d cannot be merged", i), Err: err})
			continue
		}
		current = merged
	}
	errs = append(errs, removedMounts(owned, current)...)
	errs = append(errs, undeclaredMounts(template, current, claimVolumes)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return current, nil
}

// mergeLayer applies one strategic merge patch to t.
func mergeLayer(t *corev1.PodTemplateSpec, patch []byte) (*corev1.PodTemplateSpec, error) {
	original, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	out, err := strategicpatch.StrategicMergePatch(original, patch, corev1.PodTemplateSpec{})
	if err != nil {
		return nil, err
	}
	var merged corev1.PodTemplateSpec
	if err := json.Unmarshal(out, &merged); err != nil {
		return nil, err
	}
	return &merged, nil
}

// mountRef is one volumeMount of a container in a pod override.
type mountRef struct {
	list, container, mountPath, volume string
}

func (r mountRef) key() string { return r.list + "/" + r.container + "/" + r.mountPath }

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

func mountsOf(t *corev1.PodTemplateSpec) []mountRef {
	var refs []mountRef
	for list, cs := range map[string][]corev1.Container{"initContainers": t.Spec.InitContainers, "containers": t.Spec.Containers} {
		for _, c := range cs {
			for _, m := range c.VolumeMounts {
				refs = append(refs, mountRef{list: list, container: c.Name, mountPath: m.MountPath, volume: m.Name})
			}
		}
	}
	slices.SortFunc(refs, func(a, b mountRef) int {
		if a.key() < b.key() {
			return -1
		}
		if a.key() > b.key() {
			return 1
		}
		return 0
	})
	return refs
}

// removedMounts reports framework mounts that the merged template no longer
// has: a layer replacing a container's whole volumeMounts list (or deleting
// a mount) takes the framework's volume away from the container as surely
// as displacing it.
func removedMounts(owned map[string]string, merged *corev1.PodTemplateSpec) []error {
	now := mountIndex(merged)
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(owned)) {
		if _, ok := now[key]; ok {
			continue
		}
		list, rest, _ := strings.Cut(key, "/")
		container, mountPath, _ := strings.Cut(rest, "/")
		ref := mountRef{list: list, container: container, mountPath: mountPath, volume: owned[key]}
		errs = append(errs, validationErrorf(ref.field(),
			"podOverrides removes the framework's mount of volume %q at %s; add your mounts beside it instead of replacing the list",
			ref.volume, ref.mountPath))
	}
	return errs
}

// undeclaredMounts reports mounts of the merged template whose volume the
// pod does not declare, unless the built template already had that mount
// (then the product, not the override, is at fault). This catches both a
// mount an override added and a volume an override deleted.
func undeclaredMounts(base, merged *corev1.PodTemplateSpec, claimVolumes []string) []error {
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
		if already[ref] {
			continue
		}
		errs = append(errs, validationErrorf(ref.field(),
			"volume %q mounted at %s is not a volume of the pod; declare it in podOverrides.spec.volumes", ref.volume, ref.mountPath))
	}
	return errs
}
