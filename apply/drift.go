package apply

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// drifted decides whether an existing object must be written and says why
// (empty: it need not be): its desired digest changed, the live object no
// longer carries our digest, owner or stated metadata, its reapply time
// came, or someone else wrote it since our last write. The last is seen
// from the generation for types that track one (status updates by
// controllers do not count) and from the resourceVersion otherwise; for
// such types with a status, a change that leaves every stated field as it
// was (a status update, a controller filling in a field) is not a write by
// someone else (the version compared with is the one the engine knows as
// its own, see known.go). When the client's view disagrees with it, the
// engine's reader (uncached) confirms it, reading the object whole, before
// a write is made; on success *live is replaced with what that reader saw.
// A version whose content a write would not change is taken as the
// engine's own, without a write and without changing the inventory.
func (p *pass) drifted(ctx context.Context, d *desired, it *inventory.Item, live *client.Object) (string, error) {
	if _, err := p.takeBack(ctx, d, it, live); err != nil {
		return "", err
	}
	if d.settings.reconcile == ReconcilePolicyOnce && it.Digest != "" && p.ownerOf(*live) == p.owner.ID {
		return "", nil
	}
	if why := p.staticDrift(d, it, *live); why != "" {
		return why, nil
	}
	if !p.liveChanged(d.key, it, *live) {
		return "", nil
	}
	if _, lite := (*live).(*metav1.PartialObjectMetadata); p.r.separateReader || lite {
		// Confirmed through the reader, and read whole: whether a write
		// would change anything depends on the content.
		fresh, err := p.r.getWith(ctx, p.r.reader, d.ref, false)
		if err != nil {
			return "", err
		}
		if fresh == nil {
			return "gone", nil
		}
		*live = fresh
		if why := p.staticDrift(d, it, fresh); why != "" {
			return why, nil
		}
		if !p.liveChanged(d.key, it, fresh) {
			return "", nil
		}
	}
	if p.statesStillHold(d, live) || p.writeChangesNothing(d, *live) {
		// Someone changed what we do not state, or the version is one we
		// wrote before a restart: take it as ours, without a write, and
		// without changing the inventory (see known.go).
		p.r.known.set(d.key, versionOf(*live, d.digest))
		return "", nil
	}
	return "changed by someone else", nil
}

// takeBack takes into the item, without a write, an object it has no
// record of (its inventory was lost) that this owner wrote with the
// desired state: it carries the owner's marks and the desired digest, and
// its content, read through the reader, still holds every field the
// desired object states. It reports whether it did; on success *live is
// what the reader saw.
func (p *pass) takeBack(ctx context.Context, d *desired, it *inventory.Item, live *client.Object) (bool, error) {
	l := *live
	if it.Digest != "" || l.GetAnnotations()[p.r.prefix+AnnotationDigest] != d.digest ||
		p.ownerOf(l) != p.owner.ID || l.GetLabels()[p.r.prefix+AnnotationOwnerID] != p.ownerLabel {
		return false, nil
	}
	fresh, err := p.r.getWith(ctx, p.r.reader, d.ref, false)
	if err != nil || fresh == nil {
		return false, err
	}
	u, ok := fresh.(*unstructured.Unstructured)
	want, err := d.content()
	if !ok || err != nil {
		return false, err
	}
	for k, v := range want.Object {
		if k == "metadata" || k == "status" || k == "apiVersion" || k == "kind" {
			continue
		}
		if !covers(canonical(v), u.Object[k]) {
			return false, nil
		}
	}
	*live = fresh
	it.Digest = d.digest
	it.Generation = fresh.GetGeneration()
	it.ResourceVersion = ""
	if it.Generation == 0 {
		it.ResourceVersion = fresh.GetResourceVersion()
	}
	p.log.V(1).Info("taken back without a write", "object", d.ref.String())
	return true, nil
}

// staticDrift covers what the record alone decides.
func (p *pass) staticDrift(d *desired, it *inventory.Item, live client.Object) string {
	prefix := p.r.prefix
	switch {
	case it.Digest != d.digest:
		return "desired state changed"
	case live.GetAnnotations()[prefix+AnnotationDigest] != d.digest:
		return "digest annotation differs"
	case p.ownerOf(live) != p.owner.ID || live.GetLabels()[prefix+AnnotationOwnerID] != p.ownerLabel:
		return "owner marks differ"
	// Metadata edits do not bump the generation: compare what we state.
	// Additions by others are fine (the server and other controllers add
	// labels and annotations legitimately).
	case !subset(d.obj.GetLabels(), live.GetLabels()) || !subset(d.obj.GetAnnotations(), live.GetAnnotations()):
		return "stated labels or annotations differ"
	}
	if p.reapplyDue(d, it) && p.takeReapply() {
		return "reapply interval passed"
	}
	return ""
}

// reapplyDue reports whether the object's reapply interval passed. An item
// without a record of its last write gets one now, so that turning the
// interval on does not rewrite everything at once.
func (p *pass) reapplyDue(d *desired, it *inventory.Item) bool {
	if d.settings.reapply <= 0 {
		return false
	}
	now := p.r.opts.Clock.Now()
	if it.AppliedAt == 0 {
		it.AppliedAt = now.Unix()
		return false
	}
	return now.Sub(time.Unix(it.AppliedAt, 0)) >= d.settings.reapply
}

// takeReapply counts a periodic rewrite against Options.ReapplyBatch.
func (p *pass) takeReapply() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reapplies >= p.r.opts.ReapplyBatch {
		return false
	}
	p.reapplies++
	return true
}

// liveChanged reports a write by someone else since our last one: live is
// another version than the one the engine knows as its own (known.go), or,
// without one, than the one the inventory records.
func (p *pass) liveChanged(key inventory.Key, it *inventory.Item, live client.Object) bool {
	if v, ok := p.r.known.of(key, live.GetUID()); ok {
		return v.changedSince(live)
	}
	return recordedVersion(it).changedSince(live)
}

// recordedVersion is the version the item records.
func recordedVersion(it *inventory.Item) knownVersion {
	return knownVersion{resourceVersion: it.ResourceVersion, generation: it.Generation}
}

// statesStillHold reports, for a kind without a generation whose objects
// carry a status, whether the live object still holds every field the
// desired object states. Kinds without a status (ConfigMaps, Secrets) are
// compared by resourceVersion alone: any change there is someone's edit.
func (p *pass) statesStillHold(d *desired, live *client.Object) bool {
	if (*live).GetGeneration() > 0 || metadataKinds[d.gvk.GroupKind()] {
		return false
	}
	u, ok := (*live).(*unstructured.Unstructured)
	if !ok {
		return false
	}
	if _, hasStatus := u.Object["status"]; !hasStatus {
		return false
	}
	want, err := d.content()
	if err != nil {
		return false
	}
	for k, v := range want.Object {
		if k == "metadata" || k == "status" || k == "apiVersion" || k == "kind" {
			continue
		}
		if !covers(canonical(v), u.Object[k]) {
			return false
		}
	}
	return true
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

// writeChangesNothing reports, for a kind whose metadata decides drift
// (no status, no immutable fields) and a live object read whole, whether
// the update the engine would send equals the live object: the version is
// then the engine's own, written before the engine lost track of it (a
// revert before a restart), and needs no write.
func (p *pass) writeChangesNothing(d *desired, live client.Object) bool {
	l, ok := live.(*unstructured.Unstructured)
	if !ok || !metadataKinds[d.gvk.GroupKind()] || d.settings.update != UpdatePolicyReplace {
		return false
	}
	c, err := d.content()
	if err != nil {
		return false
	}
	want := c.DeepCopy()
	p.stamp(want, d.digest)
	return equality.Semantic.DeepEqual(replaced(l, want, p.r.prefix).Object, l.Object)
}
