package component

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

// applyPass is the create/update branch of a pass, as named steps run in
// order; a step that settles the pass (a failure, a state to record
// first) ends it.
func (r *Reconciler[T]) applyPass(ctx context.Context, p *pass[T]) {
	for _, step := range []func(context.Context, *pass[T]) bool{
		r.startCycle,   // lost status, inputs, suspension, digest, revision
		r.render,       // clients, pre-reconcile hooks, the generator
		r.applyObjects, // the object engine, watch hints, ignored fields
		r.settle,       // ready and post-reconcile hooks, or waiting
	} {
		if !step(ctx, p) {
			return
		}
	}
}

// startCycle rebuilds the status of a component whose status was lost
// from its render record, resolves its inputs, honours a suspension,
// starts a new processing cycle when the digest of the inputs changed
// (restarting one still waiting for readiness) and counts the revision of
// a new desired state.
func (r *Reconciler[T]) startCycle(ctx context.Context, p *pass[T]) bool {
	st := p.status
	rec, err := r.records.get(ctx, p.key, p.comp)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.record = rec
	if st.ObservedGeneration == 0 && st.State == "" {
		// A new component goes on to render in the same pass: its first
		// state is the one that pass ends in (Processing, Ready or a
		// failure), one status write and one event instead of two.
		if rec == nil {
			p.log.V(1).Info("seen for the first time")
		} else {
			r.rebuildStatus(p)
		}
	}
	in, err := r.resolve(ctx, p.comp, false)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.in = in
	if s, ok := configuration[SuspensionConfiguration](p.comp); ok && s.IsSuspended() {
		p.setState(componentv1alpha1.StatePending, componentv1alpha1.ReasonSuspended, "suspended: the dependent objects are kept as they are")
		return false
	}
	if in.digest != st.ProcessingDigest {
		superseded := st.ProcessingSince != nil
		st.ProcessingDigest, st.ProcessingSince = in.digest, nil
		r.backoff.reset(p.key)
		p.log.V(1).Info("new processing cycle", "digest", in.digest)
		if superseded {
			p.setState(componentv1alpha1.StateProcessing, componentv1alpha1.ReasonRestarting,
				"the desired state changed before the previous one was ready; starting over")
			p.after(requeueNow)
			return false
		}
	}
	if rec != nil && rec.revision > st.Revision {
		// The record is ahead of the status (a pass wrote it and stopped
		// before the status): its revision is the last one rendered.
		st.Revision, st.LastProcessingDigest = rec.revision, rec.digest
	}
	p.newRevision = st.ProcessingDigest != st.LastProcessingDigest
	if p.newRevision {
		st.Revision++
		st.LastProcessingDigest = st.ProcessingDigest
		p.log.Info("rendering a new revision", "revision", st.Revision)
	}
	return true
}

// render builds the clients of the component's target, runs the
// pre-reconcile hooks and renders the objects with the generator.
func (r *Reconciler[T]) render(ctx context.Context, p *pass[T]) bool {
	tgt, local, err := r.clients(p.comp)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.target, p.local = tgt, local
	if p.newRevision {
		// A new desired state may bring new types (its CRDs); let
		// generators see them.
		tgt.discovery.Invalidate()
	}
	ctx = withClients(ctx, tgt.client, local)
	if err := r.hooks.run(ctx, preReconcile, r.client, p.comp); err != nil {
		r.fail(p, err)
		return false
	}
	if objects, ok := p.record.reuse(p.in.digest, p.status.Revision); ok {
		// The inputs did not change since the recorded render: apply what
		// it produced, without rendering again.
		p.objects = objects
		return true
	}
	objects, err := r.generate(ctx, p, func(w generators.Warning) { r.recordWarning(p, w.Reason, w.Message) })
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.objects = objects
	r.keepRecord(ctx, p)
	return true
}

// generate renders the component's objects for the pass's revision with
// the generator, through the pass's clients.
func (r *Reconciler[T]) generate(ctx context.Context, p *pass[T], onWarning func(generators.Warning)) ([]client.Object, error) {
	ns, name := placement(p.comp)
	// Lookups read uncached: the manager's cache holds only the
	// reconciler's own objects of the kinds it renders.
	localReader := r.apiReader
	if p.local != r.client {
		localReader = p.local
	}
	objects, err := r.generator.Generate(generators.WithEnvironment(ctx, generators.Environment{
		ReconcilerName:  r.name,
		ComponentDigest: p.in.digest,
		Revision:        p.status.Revision,
		Client:          p.target.reader,
		LocalClient:     localReader,
		Discovery:       p.target.discovery,
		ParametersPath:  "spec",
		Component:       p.comp,
		OnWarning:       onWarning,
	}), ns, name, p.in.parameters)
	if err != nil {
		return nil, fmt.Errorf("rendering: %w", err)
	}
	return objects, nil
}

// keepRecord records the pass's render, before anything of it is applied:
// should the pass stop after applying, the record still has its revision.
func (r *Reconciler[T]) keepRecord(ctx context.Context, p *pass[T]) {
	rec, err := newRecord(p.comp.GetUID(), p.in.digest, p.status.Revision, p.objects, r.scheme, &r.records.zip)
	if err == nil {
		err = r.records.put(ctx, p.key, p.comp, rec)
	}
	if err != nil {
		// The render is applied anyway; a restart will render again.
		p.log.Error(err, "keeping the render record")
		r.recordWarning(p, ReasonRenderNotRecorded, err.Error())
	}
}

// rebuildStatus takes what a component whose status was lost (restored
// from a backup, wiped by hand) had from its render record: the revision
// and the digest of its last render. The objects of that render are
// applied again, taken back without a write where they match, and no hook
// that completed runs again.
func (r *Reconciler[T]) rebuildStatus(p *pass[T]) {
	st, rec := p.status, p.record
	st.Revision = rec.revision
	st.ProcessingDigest, st.LastProcessingDigest = rec.digest, rec.digest
	p.inventoryLost = true
	p.log.Info("the status was lost; rebuilt from the render record", "revision", rec.revision)
	r.recordNormal(p, ReasonStatusRebuilt, fmt.Sprintf("the status was lost; rebuilt from the record of revision %d", rec.revision))
}

// applyObjects applies the rendered objects through the object engine,
// with the hints of the watches on what changed since the last pass.
func (r *Reconciler[T]) applyObjects(ctx context.Context, p *pass[T]) bool {
	st, tgt := p.status, p.target
	if err := r.checkKinds(p.objects); err != nil {
		r.fail(p, err)
		return false
	}
	eng, err := r.engine(tgt, p.comp, true)
	if err != nil {
		r.fail(p, err)
		return false
	}
	ns, _ := placement(p.comp)
	owner := apply.Owner{ID: ownerID(p.key), DefaultNamespace: ns, ComponentDigest: p.in.digest}
	var changed []inventory.Key
	epoch := 0
	if tgt.cached {
		r.watch.own(r.ownerLabel(p.key), p.key)
		changed, epoch = r.watch.take(p.key, &st.Inventory)
	}
	ctx = withClients(ctx, tgt.client, p.local)
	shardgate.Follow(shardgate.OwnerLabels(p.comp), p.objects)
	res, err := eng.Apply(ctx, &st.Inventory, p.objects, apply.PassOptions{
		Owner: owner, Changed: changed, InventoryLost: p.inventoryLost, Written: r.watch.wrote(p.key),
	})
	if tgt.cached {
		r.watch.done(p.key, epoch, err == nil)
		r.watchInventory(p)
	}
	r.noteIgnoredFields(p, res)
	if err != nil {
		r.fail(p, err)
		return false
	}
	p.applied = res
	return true
}

// settle finishes a pass that applied everything it could: Processing
// while objects are not ready, else the post-reconcile hooks and Ready,
// or Error with reason ImmutableFieldIgnored when the render asks for a
// value an object cannot take (the generation is then not recorded as
// applied).
func (r *Reconciler[T]) settle(ctx context.Context, p *pass[T]) bool {
	st := p.status
	if !p.applied.Done {
		r.waitReady(p)
		return false
	}
	ctx = withClients(ctx, p.target.client, p.local)
	if err := r.hooks.run(ctx, postReconcile, r.client, p.comp); err != nil {
		r.fail(p, err)
		return false
	}
	processing := st.ProcessingSince != nil
	st.ProcessingSince = nil
	r.backoff.reset(p.key)
	if msg := ignoredMessage(p.applied); msg != "" {
		// Not applied as asked: no retry changes that, the next periodic
		// pass or a change of the inputs looks again.
		p.setState(componentv1alpha1.StateError, componentv1alpha1.ReasonImmutableFieldIgnored, msg)
		p.after(p.requeueInterval + jitter(p.requeueInterval*3/100, 0.66))
		return true
	}
	if st.State != componentv1alpha1.StateReady || processing || st.AppliedGeneration != p.comp.GetGeneration() || p.newRevision {
		st.AppliedGeneration = p.comp.GetGeneration()
		now := metav1.NewTime(p.now)
		st.LastAppliedAt = &now
	}
	p.setState(componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, "every dependent object is applied and ready")
	// 1 to 5% later, so that components created together spread out.
	p.after(p.requeueInterval + jitter(p.requeueInterval*3/100, 0.66))
	return true
}

// waitReady handles a pass that applied what it could while objects are
// not ready yet: Processing until the timeout, Error with reason Timeout
// after it.
func (r *Reconciler[T]) waitReady(p *pass[T]) {
	st := p.status
	if st.ProcessingSince == nil {
		now := metav1.NewTime(p.now)
		st.ProcessingSince = &now
	}
	waiting := unready(&st.Inventory)
	elapsed := p.now.Sub(st.ProcessingSince.Time)
	if elapsed >= p.timeout {
		p.setState(componentv1alpha1.StateError, componentv1alpha1.ReasonTimeout,
			fmt.Sprintf("dependent objects not ready within the timeout of %s: %s", p.timeout, waiting))
		p.after(r.backoff.next(p.key, p.retryInterval))
		return
	}
	p.setState(componentv1alpha1.StateProcessing, componentv1alpha1.ReasonProcessing,
		"waiting for dependent objects to become ready: "+waiting)
	p.after(min(r.backoff.next(p.key, p.retryInterval), p.timeout-elapsed))
}

// unready summarizes the items that are neither ready nor completed.
func unready(inv *inventory.Inventory) string {
	const shown = 5
	var names []string
	n := 0
	for i := range inv.Items {
		it := &inv.Items[i]
		switch it.EffectivePhase() {
		case inventory.PhaseReady, inventory.PhaseCompleted:
			continue
		}
		n++
		if len(names) < shown {
			names = append(names, fmt.Sprintf("%s (%s)", it.Key(), it.EffectivePhase()))
		}
	}
	if n == 0 {
		return "none"
	}
	s := fmt.Sprintf("%d of %d: %s", n, len(inv.Items), strings.Join(names, ", "))
	if n > shown {
		s += ", …"
	}
	return s
}

// watchInventory starts watches of the kinds the inventory holds objects
// of (those written at least once, so that their type exists).
func (r *Reconciler[T]) watchInventory(p *pass[T]) {
	for i := range p.status.Inventory.Items {
		it := &p.status.Inventory.Items[i]
		if it.EffectivePhase() == inventory.PhaseScheduledForApplication {
			continue
		}
		if err := r.watch.ensure(it.Ref().GroupVersionKind()); err != nil {
			p.log.Error(err, "watching a dependent kind", "kind", it.Ref().GroupVersionKind().String())
		}
	}
}

// placement returns the namespace and name the objects are rendered for.
func placement(c Component) (string, string) {
	ns, name := c.GetNamespace(), c.GetName()
	if p, ok := configuration[PlacementConfiguration](c); ok {
		if v := p.GetTargetNamespace(); v != "" {
			ns = v
		}
		if v := p.GetTargetName(); v != "" {
			name = v
		}
	}
	return ns, name
}
