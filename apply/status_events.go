package apply

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// generationKinds are the kinds whose every spec change raises
// metadata.generation, so that an update leaving the generation and the
// metadata as they were changed the status alone.
var generationKinds = map[schema.GroupKind]bool{
	{Group: "apps", Kind: "StatefulSet"}:           true,
	{Group: "apps", Kind: "Deployment"}:            true,
	{Group: "apps", Kind: "DaemonSet"}:             true,
	{Group: "apps", Kind: "ReplicaSet"}:            true,
	{Group: "policy", Kind: "PodDisruptionBudget"}: true,
	{Group: "batch", Kind: "Job"}:                  true,
}

// IgnoreStatusProgress returns a predicate for a controller that watches
// the objects of kind gvk it applies. It drops an update that changed
// only the status of a StatefulSet, Deployment, DaemonSet, ReplicaSet,
// PodDisruptionBudget or Job and left its readiness (as the Engine judges
// it, without status hints) as it was: a StatefulSet that starts its pods
// one by one writes its status for each, and a pass per write would only
// see progress. The update that makes the object ready, or takes a ready
// object out of readiness, passes, and so do every change of its spec or
// metadata, its creation and deletion, and every event of the other kinds
// (whose generation, where they have one, does not tell a status write
// from an edit).
func IgnoreStatusProgress(gvk schema.GroupVersionKind) predicate.Predicate {
	if !generationKinds[gvk.GroupKind()] {
		return predicate.Funcs{}
	}
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		return !statusProgressOnly(gvk, e.ObjectOld, e.ObjectNew)
	}}
}

// statusProgressOnly reports whether n differs from o, two versions of an
// object of kind gvk, in its status alone, with the same readiness.
func statusProgressOnly(gvk schema.GroupVersionKind, o, n client.Object) bool {
	if o == nil || n == nil || GenerationOrMetadataChanged(o, n) {
		return false
	}
	before, err := readinessOf(gvk, o)
	if err != nil {
		return false
	}
	after, err := readinessOf(gvk, n)
	return err == nil && before == after
}

// GenerationOrMetadataChanged reports whether n, a later version of the
// object o, has another generation (its spec changed, for the kinds that
// count spec changes), or other labels, annotations, finalizers, owner
// references or deletion timestamp.
func GenerationOrMetadataChanged(o, n client.Object) bool {
	return o.GetGeneration() != n.GetGeneration() ||
		!maps.Equal(o.GetLabels(), n.GetLabels()) ||
		!maps.Equal(o.GetAnnotations(), n.GetAnnotations()) ||
		!slices.Equal(o.GetFinalizers(), n.GetFinalizers()) ||
		!o.GetDeletionTimestamp().Equal(n.GetDeletionTimestamp()) ||
		!equality.Semantic.DeepEqual(o.GetOwnerReferences(), n.GetOwnerReferences())
}

// readinessOf is readiness of obj, of kind gvk, without a status hint.
func readinessOf(gvk schema.GroupVersionKind, obj client.Object) (kstatus.Status, error) {
	u, err := asUnstructured(obj, gvk)
	if err != nil {
		return kstatus.UnknownStatus, err
	}
	if u == nil {
		return kstatus.UnknownStatus, fmt.Errorf("%s: metadata only, no status to read", gvk.Kind)
	}
	return readiness(u, statusHint{})
}
