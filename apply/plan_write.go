package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
)

// errGoneWhilePlanning is a live object that disappeared between two
// reads of one plan.
var errGoneWhilePlanning = errors.New("the object disappeared while being planned")

// planCreate dry-runs the create Apply would send.
func (p *pass) planCreate(ctx context.Context, d *desired, it *inventory.Item, pc PlannedChange) PlannedChange {
	r := p.r
	pc.Action = PlanCreate
	if p.inventoryLost && it.Digest == "" && d.settings.purgeOrder != nil {
		pc.Action, pc.Reason = PlanUnchanged, "purged after it completed, before the inventory was lost: not run again"
		return pc
	}
	want, ok := d.obj.DeepCopyObject().(client.Object)
	if !ok {
		return failed(pc, fmt.Errorf("%T does not copy to an object", d.obj))
	}
	if u, isU := want.(*unstructured.Unstructured); isU {
		unstructured.RemoveNestedField(u.Object, "status")
	}
	p.stamp(want, d.digest)
	r.addTypeFinalizer(want, d.gvk)
	err := r.client.Create(ctx, want, client.DryRunAll, client.FieldOwner(r.opts.FieldOwner))
	ns := want.GetNamespace()
	switch {
	case missingNamespace(err, ns) && r.opts.MissingNamespacesPolicy == MissingNamespacesPolicyDoNotCreate:
		pc.Action, pc.Cause = PlanBlocked, BlockPolicy
		pc.Reason = fmt.Sprintf("namespace %s does not exist and the missing-namespaces policy is %s", ns, MissingNamespacesPolicyDoNotCreate)
		return pc
	case missingNamespace(err, ns):
		return p.unverifiedCreate(d, pc, fmt.Sprintf("namespace %s does not exist yet: the pass creates it first", ns))
	case isNoMatch(err):
		return p.unverifiedCreate(d, pc, "its type is not served yet: an object of the same set brings it")
	case apierrors.IsAlreadyExists(err):
		// The client's view (a cache) missed it: plan it as the pass would
		// once its create was refused.
		live, err := r.getWith(ctx, r.planReader(), d.ref, false)
		if err != nil || live == nil {
			return failed(pc, errors.Join(err, errGoneWhilePlanning))
		}
		pc.Action = ""
		return p.planExisting(ctx, d, it, live, pc)
	case err != nil:
		return failed(pc, &DryRunError{Object: d.ref, Verb: "create", Err: err})
	}
	u, err := asUnstructured(want, d.gvk)
	if err != nil {
		return failed(pc, err)
	}
	pc.Verified = true
	pc.Desired = normalised(u)
	dropAllocated(pc.Desired, d.obj)
	maskSecret(nil, pc.Desired)
	return pc
}

// unverifiedCreate is a create the API server cannot be asked about yet:
// its desired state is the object as the pass would send it.
func (p *pass) unverifiedCreate(d *desired, pc PlannedChange, why string) PlannedChange {
	want, err := p.stamped(d)
	if err != nil {
		return failed(pc, err)
	}
	pc.Reason = why + "; not tried against the server"
	pc.Desired = normalised(want)
	maskSecret(nil, pc.Desired)
	return pc
}

// stamped returns d's content as the pass would write it: with the
// owner's marks, the digest and, for types, the finalizer.
func (p *pass) stamped(d *desired) (*unstructured.Unstructured, error) {
	c, err := d.content()
	if err != nil {
		return nil, err
	}
	want := c.DeepCopy()
	p.stamp(want, d.digest)
	p.r.addTypeFinalizer(want, d.gvk)
	return want, nil
}

// planUpdate dry-runs the update Apply would send, over a fresh read of
// the live object, and compares the answer with that read.
func (p *pass) planUpdate(ctx context.Context, d *desired, pc PlannedChange) PlannedChange {
	r := p.r
	pc.Action = PlanUpdate
	var (
		live, written *unstructured.Unstructured
		preserved     preservedFields
		verb          = "update"
	)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		fresh, err := r.getWith(ctx, r.planReader(), d.ref, false)
		if err != nil {
			return err
		}
		if fresh == nil {
			return errGoneWhilePlanning
		}
		if live, err = full(fresh); err != nil {
			return err
		}
		want, err := p.stamped(d)
		if err != nil {
			return err
		}
		if preserved, err = preserveImmutable(live, want); err != nil {
			return err
		}
		if d.settings.update == UpdatePolicySSAMerge || d.settings.update == UpdatePolicySSAOverride {
			verb, written = "patch", want
			return r.client.Apply(ctx, client.ApplyConfigurationFromUnstructured(written),
				client.DryRunAll, client.FieldOwner(r.opts.FieldOwner), client.ForceOwnership)
		}
		written = replaced(live, want, r.prefix)
		return r.client.Update(ctx, written, client.DryRunAll, client.FieldOwner(r.opts.FieldOwner))
	})
	if err != nil {
		if !errors.Is(err, errGoneWhilePlanning) {
			err = &DryRunError{Object: d.ref, Verb: verb, Err: err}
		}
		return failed(pc, err)
	}
	pc.IgnoredFields, pc.IgnoredValues = preserved.report()
	pc.Verified = true
	pc.Live, pc.Desired = normalised(live), normalised(written)
	pc.Fields = DiffFields(pc.Live, pc.Desired)
	if len(pc.IgnoredFields) > 0 && onlyBookkeeping(pc.Fields, r.prefix) {
		pc.Action, pc.Cause = PlanBlocked, BlockImmutableField
		pc.Reason = "only fields that cannot change differ (" + strings.Join(pc.IgnoredFields, ", ") + "): the pass keeps their live values"
	}
	maskSecret(pc.Live, pc.Desired)
	return pc
}

// planRecreate plans a delete and a new create. The create cannot be
// tried under the object's name while the object exists: it is dry-run
// under a name the server generates, so that the server's defaults and
// admission count; where the server refuses that (a type whose names
// mean something), the plan shows the object as sent, not verified.
func (p *pass) planRecreate(ctx context.Context, d *desired, pc PlannedChange) PlannedChange {
	pc.Action = PlanRecreate
	fresh, err := p.r.getWith(ctx, p.r.planReader(), d.ref, false)
	if err != nil || fresh == nil {
		return failed(pc, errors.Join(err, errGoneWhilePlanning))
	}
	live, err := full(fresh)
	if err != nil {
		return failed(pc, err)
	}
	want, err := p.stamped(d)
	if err != nil {
		return failed(pc, err)
	}
	pc.Reason = "update policy recreate (" + pc.Reason + "): deleted, then created again once gone"
	if tried, ok := p.dryRunCreateAside(ctx, want); ok {
		want, pc.Verified = tried, true
		pc.Reason += "; the create was tried under a generated name"
	} else {
		pc.Reason += "; the create is not tried against the server"
	}
	pc.Live, pc.Desired = normalised(live), normalised(want)
	dropAllocated(pc.Desired, d.obj)
	pc.Fields = DiffFields(pc.Live, pc.Desired)
	maskSecret(pc.Live, pc.Desired)
	return pc
}

// dryRunCreateAside dry-runs the create of want under a name the server
// generates and returns the answer under want's name; false when the
// server refuses it.
func (p *pass) dryRunCreateAside(ctx context.Context, want *unstructured.Unstructured) (*unstructured.Unstructured, bool) {
	try := want.DeepCopy()
	try.SetName("")
	try.SetGenerateName(want.GetName() + "-")
	try.SetResourceVersion("")
	if err := p.r.client.Create(ctx, try, client.DryRunAll, client.FieldOwner(p.r.opts.FieldOwner)); err != nil {
		return nil, false
	}
	try.SetName(want.GetName())
	try.SetGenerateName(want.GetGenerateName())
	return try, true
}

// planUnchanged plans an object the pass would not write: the fields that
// cannot change which the desired object states differently, and, for an
// object created once and never updated, whether it differs (said in the
// reason: the pass takes it as it is, so it is no change).
func (p *pass) planUnchanged(ctx context.Context, d *desired, live client.Object, pc PlannedChange) PlannedChange {
	pc.Action = PlanUnchanged
	if hasImmutableRules(d.gvk.GroupKind()) {
		l, ok := live.(*unstructured.Unstructured)
		if c, err := d.content(); ok && err == nil {
			kept, _ := preserveImmutable(l, c.DeepCopy())
			pc.IgnoredFields, pc.IgnoredValues = kept.report()
		}
	}
	if d.settings.reconcile != ReconcilePolicyOnce {
		return pc
	}
	if _, isFull := live.(*unstructured.Unstructured); !isFull {
		fresh, err := p.r.getWith(ctx, p.r.planReader(), d.ref, false)
		if err != nil || fresh == nil {
			return failed(pc, errors.Join(err, errGoneWhilePlanning))
		}
		live = fresh
	}
	c, err := d.content()
	if err != nil {
		return failed(pc, err)
	}
	if l, ok := live.(*unstructured.Unstructured); ok && !statesHold(c, l) {
		// As the pass sees it: nothing to do, nothing wrong (an
		// install-only hook renders differently on every revision).
		pc.Reason = "reconcile policy once: created once and never updated, though it differs from the desired state"
	}
	return pc
}

// statesHold reports whether live holds every field and every label and
// annotation want states.
func statesHold(want, live *unstructured.Unstructured) bool {
	if !subset(want.GetLabels(), live.GetLabels()) || !subset(want.GetAnnotations(), live.GetAnnotations()) {
		return false
	}
	for k, v := range want.Object {
		if k == "metadata" || k == "status" || k == "apiVersion" || k == "kind" {
			continue
		}
		if !covers(canonical(v), live.Object[k]) {
			return false
		}
	}
	return true
}

// onlyBookkeeping reports whether every changed field is one of the
// engine's own annotations (the digest a write always moves).
func onlyBookkeeping(fields []FieldChange, prefix string) bool {
	for _, f := range fields {
		if !strings.HasPrefix(f.Path, "metadata.annotations["+prefix) {
			return false
		}
	}
	return true
}
