package builders

import (
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// PodOverride is one layer's podOverrides.
type PodOverride struct {
	// Layer is where the override was written, usually
	// commonsv1alpha1.LayerRole or LayerRoleGroup; errors name its field.
	Layer commonsv1alpha1.Layer
	// Patch is the JSON of a core/v1 PodTemplateSpec, taken as written so
	// that strategic-merge directives and explicit nulls keep their
	// meaning. Empty means the layer states none.
	Patch []byte
}

// ApplyPodOverrides strategic-merges the podOverrides layers, lowest
// precedence first, over template (the built template of the scope's role
// group, sidecars included) and returns the result. template is not
// modified. claimVolumes names the StatefulSet's claim templates, which
// back mounts like volumes do.
//
// Before each layer, a member of a union the layer replaces is cleared in
// the template (a volume's source, an env var's value or valueFrom, a
// probe's or lifecycle hook's handler), so a replacement does not merge
// into a union with two members set.
//
// What would silently break the pod is reported instead of built, each as a
// *ValidationError naming the layer's podOverrides field as its author
// wrote it (e.g. "spec.roles.server.roleGroups.default.podOverrides.spec.
// containers[name=main].volumeMounts[mountPath=/data]"): a volumeMount at a
// mountPath where the built template mounts another volume (strategic merge
// keys mounts by path, so it would displace the framework's volume: the
// config, the data, or a sidecar's log volume), a framework mount the
// layers remove, and a volumeMount naming a volume the pod does not declare
// (added by an override, or left behind by one that deleted its volume).
// Mounting at a new path is fine. A container the layers leave privileged
// (or with CAP_SYS_ADMIN added) while stating allowPrivilegeEscalation
// false is reported at its securityContext: the API server refuses the
// pair. Privileges asked alone are applied as asked, the restricted
// defaults then leave allowPrivilegeEscalation out (HardenContainer). A
// layer that is not a PodTemplateSpec is an error too. All errors are
// joined.
func ApplyPodOverrides(scope Scope, template *corev1.PodTemplateSpec, claimVolumes []string, layers ...PodOverride) (*corev1.PodTemplateSpec, error) {
	current := template.DeepCopy()
	owned := mountIndex(current)
	removedBy := map[string]commonsv1alpha1.Layer{}
	var (
		errs    []error
		applied []decodedOverride
	)
	for _, layer := range layers {
		if len(layer.Patch) == 0 {
			continue
		}
		var patch corev1.PodTemplateSpec
		if err := json.Unmarshal(layer.Patch, &patch); err != nil {
			verr := layerError(scope, layer.Layer, "podOverrides", "not a pod template")
			verr.Err = err
			errs = append(errs, verr)
			continue
		}
		if displaced := displacedMounts(scope, layer.Layer, owned, &patch); len(displaced) > 0 {
			errs = append(errs, displaced...)
			continue
		}
		clearSupersededUnions(current, &patch)
		merged, err := mergeLayer(current, layer.Patch)
		if err != nil {
			verr := layerError(scope, layer.Layer, "podOverrides", "cannot be merged into the pod template")
			verr.Err = err
			errs = append(errs, verr)
			continue
		}
		current = merged
		applied = append(applied, decodedOverride{layer: layer.Layer, patch: &patch})
		now := mountIndex(current)
		for key := range owned {
			if _, ok := now[key]; !ok {
				if _, known := removedBy[key]; !known {
					removedBy[key] = layer.Layer
				}
			}
		}
	}
	errs = append(errs, removedMounts(scope, owned, removedBy, current)...)
	errs = append(errs, undeclaredMounts(scope, template, current, claimVolumes, applied)...)
	errs = append(errs, escalationConflicts(scope, template, current, applied)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return current, nil
}

// decodedOverride is a layer that was merged, with its patch decoded.
type decodedOverride struct {
	layer commonsv1alpha1.Layer
	patch *corev1.PodTemplateSpec
}

// displacedMounts reports the mounts of patch that sit where the built
// template mounts another volume.
func displacedMounts(scope Scope, layer commonsv1alpha1.Layer, owned map[string]string, patch *corev1.PodTemplateSpec) []error {
	var errs []error
	for _, ref := range mountsOf(patch) {
		if vol, ok := owned[ref.key()]; ok && vol != ref.volume {
			errs = append(errs, layerError(scope, layer, ref.field(),
				"mounting volume %q at %s would displace the framework's volume %q mounted there; mount it at another path",
				ref.volume, ref.mountPath, vol))
		}
	}
	return errs
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
		return nil, fmt.Errorf("decoding the merged template: %w", err)
	}
	return &merged, nil
}
