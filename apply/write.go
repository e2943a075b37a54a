package apply

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"k8s.io/client-go/util/retry"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// applyObject brings one object to its desired state and records the result
// in item. It returns the fields the immutable-field rules preserved.
func (r *Reconciler) applyObject(ctx context.Context, p *pass, d *desired, item *InventoryItem) ([]string, error) {
	live, err := r.get(ctx, r.client, d.u)
	if err != nil {
		return nil, err
	}
	if live == nil {
		if item.Phase == PhaseCompleted && item.Digest == d.digest {
			return nil, nil
		}
		return nil, r.create(ctx, p, d, item)
	}
	if live.GetDeletionTimestamp() != nil {
		// Being deleted (by a recreate, or by someone else): wait for it to
		// go, then create it again.
		item.Phase, item.Status = PhaseDeleting, kstatus.TerminatingStatus
		return nil, nil
	}
	if err := r.mayTouch(live, d.settings.adoption, d.ref); err != nil {
		return nil, err
	}
	if !r.drifted(ctx, d, item, &live) {
		return nil, r.observe(live, d, item)
	}
	if d.settings.update == UpdatePolicyRecreate {
		return nil, r.deleteLive(ctx, live, item, ReasonUpdated)
	}
	var (
		preserved []string
		written   *unstructured.Unstructured
		attempt   int
	)
	// A controller may write the object (its status, say) between our read
	// and our update; such a conflict is retried with a fresh read.
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if attempt++; attempt > 1 {
			fresh, err := r.get(ctx, r.reader, d.u)
			if err != nil {
				return fmt.Errorf("re-reading after a conflict: %w", err)
			}
			if fresh == nil {
				return &RetriableError{Err: fmt.Errorf("%s disappeared while being updated", d.ref)}
			}
			if err := r.mayTouch(fresh, d.settings.adoption, d.ref); err != nil {
				return err
			}
			live = fresh
		}
		want := d.u.DeepCopy()
		r.stamp(want, d.digest)
		r.addTypeFinalizer(want)
		var err error
		if preserved, err = preserveImmutable(live, want); err != nil {
			return err
		}
		if d.settings.update == UpdatePolicySSAMerge || d.settings.update == UpdatePolicySSAOverride {
			written, err = r.serverSideApply(ctx, live, want, d.settings.update == UpdatePolicySSAOverride)
			return err
		}
		written = replaced(live, want, r.prefix)
		return r.client.Update(ctx, written, client.FieldOwner(r.opts.FieldOwner))
	})
	if len(preserved) > 0 {
		r.event(live, true, ReasonImmutableFieldIgnored, "Update", "fields that cannot change were kept: %s", strings.Join(preserved, ", "))
	}
	if err != nil {
		r.event(live, true, ReasonFailed, "Update", "update failed: %v", err)
		return preserved, fmt.Errorf("updating %s: %w", d.ref, err)
	}
	r.event(written, false, ReasonUpdated, "Update", "updated %s", d.ref)
	r.recordWrite(written, d, item, PhaseUpdating)
	return preserved, r.observe(written, d, item)
}

func (r *Reconciler) create(ctx context.Context, p *pass, d *desired, item *InventoryItem) error {
	if err := r.ensureNamespace(ctx, p, d); err != nil {
		return err
	}
	want := d.u.DeepCopy()
	r.stamp(want, d.digest)
	r.addTypeFinalizer(want)
	if err := r.client.Create(ctx, want, client.FieldOwner(r.opts.FieldOwner)); err != nil {
		r.event(d.u, true, ReasonFailed, "Create", "create failed: %v", err)
		return fmt.Errorf("creating %s: %w", d.ref, err)
	}
	r.event(want, false, ReasonCreated, "Create", "created %s", d.ref)
	r.recordWrite(want, d, item, PhaseCreating)
	return r.observe(want, d, item)
}

// serverSideApply sends want as a server-side apply; with override it first
// moves the fields of client-side (update) managers to our field manager so
// that the apply can remove fields want no longer states.
func (r *Reconciler) serverSideApply(ctx context.Context, live, want *unstructured.Unstructured, override bool) (*unstructured.Unstructured, error) {
	if override {
		managers := sets.New[string]()
		for _, mf := range live.GetManagedFields() {
			if mf.Operation == metav1.ManagedFieldsOperationUpdate {
				managers.Insert(mf.Manager)
			}
		}
		patch, err := csaupgrade.UpgradeManagedFieldsPatch(live, managers, r.opts.FieldOwner)
		if err != nil {
			return nil, fmt.Errorf("moving field ownership: %w", err)
		}
		if patch != nil {
			if err := r.client.Patch(ctx, live.DeepCopy(), client.RawPatch(types.JSONPatchType, patch)); err != nil {
				return nil, fmt.Errorf("moving field ownership: %w", err)
			}
		}
	}
	ac := client.ApplyConfigurationFromUnstructured(want)
	if err := r.client.Apply(ctx, ac, client.FieldOwner(r.opts.FieldOwner), client.ForceOwnership); err != nil {
		return nil, err
	}
	return want, nil
}

// recordWrite stores what the write left on the server.
func (r *Reconciler) recordWrite(written *unstructured.Unstructured, d *desired, item *InventoryItem, phase Phase) {
	now := metav1.NewTime(r.opts.Clock.Now())
	item.Digest = d.digest
	item.LastAppliedAt = &now
	item.UID = written.GetUID()
	item.ResourceVersion = written.GetResourceVersion()
	item.Generation = written.GetGeneration()
	item.Phase = phase
}

// observe records the readiness of a live object.
func (r *Reconciler) observe(live *unstructured.Unstructured, d *desired, item *InventoryItem) error {
	st, err := readiness(live, d.settings.hint)
	if err != nil {
		return fmt.Errorf("%s: %w", d.ref, err)
	}
	item.Status = st
	if st == kstatus.CurrentStatus {
		item.Phase = PhaseReady
	} else if item.Phase == PhaseReady || item.Phase == PhaseScheduledForApplication {
		item.Phase = PhaseUpdating
	}
	return nil
}

// get reads the live object of u's identity, nil when it does not exist.
func (r *Reconciler) get(ctx context.Context, rd client.Reader, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	live := &unstructured.Unstructured{}
	live.SetGroupVersionKind(u.GroupVersionKind())
	if err := rd.Get(ctx, client.ObjectKeyFromObject(u), live); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading %s: %w", objectName(u.GroupVersionKind().GroupKind(), u.GetNamespace(), u.GetName()), err)
	}
	return live, nil
}

// addTypeFinalizer puts the reconciler's finalizer on a CRD or APIService,
// so that deleting the type by hand cannot take instances with it before
// the reconciler has seen none remain.
func (r *Reconciler) addTypeFinalizer(u *unstructured.Unstructured) {
	if gk := u.GroupVersionKind().GroupKind(); gk == gkCRD || gk == gkAPIService {
		controllerutil.AddFinalizer(u, r.opts.Finalizer)
	}
}
