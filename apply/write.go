package apply

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
)

// typeWait is how long to wait for a type or a namespace to appear.
const typeWait = 5 * time.Second

// applyObject brings one object to its desired state and records the result
// in item.
func (p *pass) applyObject(ctx context.Context, d *desired, it *inventory.Item) Change {
	if p.skippable(d, it) {
		return Change{Action: ActionUnchanged}
	}
	live, done, ch := p.liveOrCreate(ctx, d, it)
	if done {
		return ch
	}
	if live.GetDeletionTimestamp() != nil {
		// Being deleted (by a recreate, or by someone else): wait for it to
		// go, then create it again.
		it.SetPhase(inventory.PhaseDeleting)
		it.SetStatus(string(kstatus.TerminatingStatus))
		return Change{Action: ActionWaiting}
	}
	if err := p.mayTouch(live, d.settings.adoption, d.ref); err != nil {
		return Change{Err: err}
	}
	why, err := p.drifted(ctx, d, it, &live)
	if err != nil {
		return Change{Err: err}
	}
	if why == "" {
		return p.unchanged(d, it, live)
	}
	p.log.V(1).Info("drift", "object", d.ref.String(), "reason", why)
	if d.settings.update == UpdatePolicyRecreate {
		if err := p.deleteLive(ctx, live, d.ref, ReasonUpdated); err != nil {
			return Change{Err: err}
		}
		it.SetPhase(inventory.PhaseDeleting)
		return Change{Action: ActionRecreating}
	}
	return p.update(ctx, d, it, live)
}

// liveOrCreate reads the live object (see readLive); when there is none it
// creates it (done, with the create's change), unless it completed
// already. A create refused because the object exists (a cache restricted
// to the owner's label missed it) reads it through the reader instead.
// When the cache has not seen the engine's last write of the object yet,
// and that write holds the desired state, the object is left alone (done,
// unchanged): the write's watch event brings the next look.
func (p *pass) liveOrCreate(ctx context.Context, d *desired, it *inventory.Item) (client.Object, bool, Change) {
	r := p.r
	live, lagging, err := p.readLive(ctx, d)
	switch {
	case err != nil:
		return nil, true, Change{Err: err}
	case lagging:
		// Nothing written; the item keeps the readiness the last write left
		// (the cached copy says nothing of the object as it is). Immutable
		// fields are reported as on every pass: no version changes them.
		return nil, true, r.ignored.ignored(d, live)
	case live != nil:
		return live, false, Change{}
	}
	if it.EffectivePhase() == inventory.PhaseCompleted && it.Digest == d.digest {
		return nil, true, Change{Action: ActionUnchanged}
	}
	if p.inventoryLost && it.Digest == "" && d.settings.purgeOrder != nil {
		// Purged after it completed, before the inventory was lost: not
		// created, and so run, again.
		it.Digest = d.digest
		it.SetPhase(inventory.PhaseCompleted)
		return nil, true, Change{Action: ActionUnchanged}
	}
	ch := p.create(ctx, d, it)
	if !apierrors.IsAlreadyExists(ch.Err) {
		return nil, true, ch
	}
	if live, err = r.getWith(ctx, r.reader, d.ref, false); err != nil {
		return nil, true, Change{Err: err}
	}
	if live == nil {
		return nil, true, Change{Err: failure.Retriable(fmt.Errorf("%s exists but its reader does not see it (is Options.Reader uncached?)", d.ref), typeWait)}
	}
	return live, false, Change{}
}

// unchanged is the change of an object the pass need not write: the
// immutable fields the desired object states that cannot be applied, on
// every pass while they last, and the live object's readiness.
func (p *pass) unchanged(d *desired, it *inventory.Item, live client.Object) Change {
	ch := p.r.ignored.ignored(d, live)
	if err := p.observe(live, d, it, false); err != nil {
		ch.Err = err
	}
	return ch
}

// ignoredIn is the unchanged change of an object, with the immutable
// fields of live the desired object states differently.
func ignoredIn(d *desired, live client.Object) Change {
	ch := Change{Action: ActionUnchanged}
	if hasImmutableRules(d.gvk.GroupKind()) {
		l, ok := live.(*unstructured.Unstructured)
		if c, err := d.content(); ok && err == nil {
			kept, _ := preserveImmutable(l, c.DeepCopy())
			ch.IgnoredFields, ch.IgnoredValues = kept.report()
		}
	}
	return ch
}

// skippable reports an object the caller's change hints say nothing
// about, whose desired state is unchanged and which was ready: taken as
// unchanged without a read.
func (p *pass) skippable(d *desired, it *inventory.Item) bool {
	return p.changed != nil && !p.changed[d.key] &&
		it.Digest == d.digest && it.EffectivePhase() == inventory.PhaseReady &&
		!hasImmutableRules(d.gvk.GroupKind()) && !p.reapplyDue(d, it)
}

// update writes d over live, retrying conflicts with a fresh read.
func (p *pass) update(ctx context.Context, d *desired, it *inventory.Item, live client.Object) Change {
	r := p.r
	var (
		preserved preservedFields
		written   *unstructured.Unstructured
		attempt   int
	)
	// A controller may write the object (its status, say) between our read
	// and our update; such a conflict is retried with a fresh read.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if attempt++; attempt > 1 {
			fresh, err := r.getWith(ctx, r.reader, d.ref, false)
			if err != nil {
				return fmt.Errorf("re-reading after a conflict: %w", err)
			}
			if fresh == nil {
				return failure.Retriable(fmt.Errorf("%s disappeared while being updated", d.ref), typeWait)
			}
			if err := p.mayTouch(fresh, d.settings.adoption, d.ref); err != nil {
				return err
			}
			live = fresh
		}
		l, err := full(live)
		if err != nil {
			return err
		}
		c, err := d.content()
		if err != nil {
			return err
		}
		want := c.DeepCopy()
		p.stamp(want, d.digest)
		r.addTypeFinalizer(want, d.gvk)
		if preserved, err = preserveImmutable(l, want); err != nil {
			return err
		}
		if d.settings.update == UpdatePolicySSAMerge || d.settings.update == UpdatePolicySSAOverride {
			written, err = p.serverSideApply(ctx, d.ref, want, d.settings.update == UpdatePolicySSAOverride)
			return err
		}
		written = replaced(l, want, r.prefix)
		return r.client.Update(ctx, written, client.FieldOwner(r.opts.FieldOwner))
	})
	fields, values := preserved.report()
	if len(fields) > 0 {
		r.event(live, true, ReasonImmutableFieldIgnored, "Update", "fields that cannot change were kept: %s", strings.Join(fields, ", "))
	}
	if err != nil {
		r.event(live, true, ReasonFailed, "Update", "update failed: %v", err)
		return Change{Action: ActionFailed, Err: fmt.Errorf("updating %s: %w", d.ref, err), IgnoredFields: fields, IgnoredValues: values}
	}
	p.noteWrite(d.ref, written)
	r.event(written, false, ReasonUpdated, "Update", "updated %s", d.ref)
	p.log.Info("updated", "object", d.ref.String())
	p.recordWrite(written, d, it, inventory.PhaseUpdating)
	ch := Change{Action: ActionUpdated, IgnoredFields: fields, IgnoredValues: values, ResourceVersion: written.GetResourceVersion()}
	ch.Err = p.observe(written, d, it, true)
	return ch
}

func (p *pass) create(ctx context.Context, d *desired, it *inventory.Item) Change {
	r := p.r
	// The engine's own copy, typed when the caller's was: typed objects
	// encode and decode several times faster than unstructured ones.
	want, ok := d.obj.DeepCopyObject().(client.Object)
	if !ok {
		return Change{Err: fmt.Errorf("%s does not copy to an object", d.ref)}
	}
	if u, isU := want.(*unstructured.Unstructured); isU {
		unstructured.RemoveNestedField(u.Object, "status")
	}
	p.stamp(want, d.digest)
	r.addTypeFinalizer(want, d.gvk)
	err := r.client.Create(ctx, want, client.FieldOwner(r.opts.FieldOwner))
	if missingNamespace(err, want.GetNamespace()) {
		if err := p.createNamespace(ctx, d); err != nil {
			return Change{Err: err}
		}
		err = r.client.Create(ctx, want, client.FieldOwner(r.opts.FieldOwner))
	}
	if err != nil {
		if apierrors.IsAlreadyExists(err) {
			return Change{Err: err}
		}
		r.event(d.obj, true, ReasonFailed, "Create", "create failed: %v", err)
		return Change{Err: fmt.Errorf("creating %s: %w", d.ref, err)}
	}
	p.noteWrite(d.ref, want)
	r.event(want, false, ReasonCreated, "Create", "created %s", d.ref)
	p.log.Info("created", "object", d.ref.String())
	p.recordWrite(want, d, it, inventory.PhaseCreating)
	return Change{Action: ActionCreated, Err: p.observe(want, d, it, true), ResourceVersion: want.GetResourceVersion()}
}

// noteWrite tells the caller of a write (PassOptions.Written).
func (p *pass) noteWrite(ref inventory.Ref, written metav1.Object) {
	if p.written != nil {
		p.written(ref, written.GetResourceVersion())
	}
}

// recordWrite stores what the write left on the server: the generation
// for kinds that have one, the resourceVersion otherwise. A write of the
// desired state the item already records (a revert, or a recreate after
// someone deleted the object) leaves the item's version as it is and is
// remembered in memory instead (known.go): what the caller persists does
// not change.
func (p *pass) recordWrite(written client.Object, d *desired, it *inventory.Item, phase inventory.Phase) {
	v := versionOf(written, d.digest)
	v.recorded = it.Digest != d.digest || (it.Generation == 0 && it.ResourceVersion == "")
	p.r.known.set(d.key, v)
	if v.recorded {
		it.Generation = written.GetGeneration()
		it.ResourceVersion = ""
		if it.Generation == 0 {
			it.ResourceVersion = written.GetResourceVersion()
		}
	}
	it.Digest = d.digest
	it.Version = d.gvk.Version
	it.AppliedAt = 0
	if d.settings.reapply > 0 {
		it.AppliedAt = p.r.opts.Clock.Now().Unix()
	}
	it.SetPhase(phase)
}

// observe records the readiness of a live object. An object that was
// ready and that this pass did not write stays Ready even if it is not
// (a rollout someone else started): later waves are not blocked again.
func (p *pass) observe(live client.Object, d *desired, it *inventory.Item, wrote bool) error {
	st := kstatus.CurrentStatus
	if !metadataOnly(d.gvk.GroupKind(), d.settings.hint) {
		u, err := asUnstructured(live, d.gvk)
		if err != nil {
			return fmt.Errorf("%s: %w", d.ref, err)
		}
		if u != nil {
			if st, err = readiness(u, d.settings.hint); err != nil {
				return fmt.Errorf("%s: %w", d.ref, err)
			}
		}
	}
	if live.GetDeletionTimestamp() != nil {
		st = kstatus.TerminatingStatus
	}
	it.SetStatus(string(st))
	switch {
	case st == kstatus.CurrentStatus:
		it.SetPhase(inventory.PhaseReady)
	case !wrote && it.EffectivePhase() == inventory.PhaseReady:
	case it.EffectivePhase() == inventory.PhaseScheduledForApplication || it.EffectivePhase() == inventory.PhaseReady:
		it.SetPhase(inventory.PhaseUpdating)
	}
	return nil
}

// addTypeFinalizer puts the engine's finalizer on a CRD or APIService,
// so that deleting the type by hand cannot take instances with it before
// the engine has seen none remain.
func (r *Engine) addTypeFinalizer(obj client.Object, gvk schema.GroupVersionKind) {
	if gk := gvk.GroupKind(); gk == gkCRD || gk == gkAPIService {
		controllerutil.AddFinalizer(obj, r.opts.Finalizer)
	}
}

// asUnstructured returns obj in unstructured form: itself when it is one,
// a conversion of a typed object, nil for metadata only.
func asUnstructured(obj client.Object, gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return o, nil
	case *metav1.PartialObjectMetadata:
		return nil, nil
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("converting: %w", err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(gvk)
	return u, nil
}
