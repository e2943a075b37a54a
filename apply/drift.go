package apply

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// drifted decides whether an existing object must be written: its desired
// digest changed, the live object no longer carries our digest or owner, the
// reapply interval passed, or someone else wrote it since our last write.
// The last is seen from the generation for types that track one (status
// updates by controllers do not count) and from the resourceVersion
// otherwise. When the client's view disagrees with the record, the
// reconciler's reader (uncached) confirms it before a write is made; on
// success *live is replaced with what that reader saw.
func (r *Reconciler) drifted(ctx context.Context, d *desired, item *InventoryItem, live **unstructured.Unstructured) bool {
	if d.settings.reconcile == ReconcilePolicyOnce && item.Digest != "" && r.ownerOf(*live) == r.ownerID {
		return false
	}
	if r.staticDrift(d, item, *live) {
		return true
	}
	if !r.liveChanged(item, *live) {
		return false
	}
	if !r.separateReader {
		return true
	}
	fresh, err := r.get(ctx, r.reader, d.u)
	if err != nil || fresh == nil {
		return true
	}
	*live = fresh
	return r.staticDrift(d, item, fresh) || r.liveChanged(item, fresh)
}

// staticDrift covers what the record alone decides.
func (r *Reconciler) staticDrift(d *desired, item *InventoryItem, live *unstructured.Unstructured) bool {
	if item.Digest != d.digest || item.UID != live.GetUID() {
		return true
	}
	if live.GetAnnotations()[r.prefix+AnnotationDigest] != d.digest || r.ownerOf(live) != r.ownerID {
		return true
	}
	if live.GetLabels()[r.prefix+AnnotationOwnerID] != ownerLabelValue(r.ownerID) {
		return true
	}
	// Metadata edits do not bump the generation: compare what we state.
	// Additions by others are fine (the server and other controllers add
	// labels and annotations legitimately).
	if !subset(d.u.GetLabels(), live.GetLabels()) || !subset(d.u.GetAnnotations(), live.GetAnnotations()) {
		return true
	}
	if r.opts.ReapplyInterval > 0 && item.LastAppliedAt != nil &&
		r.opts.Clock.Since(item.LastAppliedAt.Time) >= r.opts.ReapplyInterval {
		return true
	}
	return false
}

// liveChanged reports a write by someone else since our last one.
func (r *Reconciler) liveChanged(item *InventoryItem, live *unstructured.Unstructured) bool {
	if live.GetGeneration() > 0 || item.Generation > 0 {
		return live.GetGeneration() != item.Generation
	}
	return live.GetResourceVersion() != item.ResourceVersion
}

// subset reports whether every entry of want is in have.
func subset(want, have map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}
