package reconciler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler/internal/observe"
	"github.com/opkit-dev/opkit/sidecar"
)

// reconcileRoles reconciles every role the catalog declares, in sorted
// order, best effort: a failing role group fails only itself, a failing
// role only itself. A 429 stops the pass at once (pushing on would only
// deepen the server's backlog). It returns the role groups whose objects
// were built and applied this pass, for the health check.
func (r *Reconciler[CR]) reconcileRoles(ctx context.Context, p *pass, cr CR, catalog Catalog, agent LogAgent) []groupTarget {
	spec := cr.GetClusterSpec()
	var targets []groupTarget
	for _, role := range slices.Sorted(maps.Keys(spec.Roles)) {
		decl, declared := catalog[role]
		if !declared {
			continue // reported by the catalog check
		}
		rs := spec.Roles[role]
		if err := r.hooks(p).rolePre(ctx, cr, role); err != nil {
			r.failRole(ctx, p, cr, role, err)
			continue
		}
		applied, roleErrs := r.reconcileGroups(ctx, p, cr, role, decl, agent)
		targets = append(targets, applied...)
		if errors.Is(errors.Join(roleErrs...), failure.ErrRateLimited) {
			p.fail("", errors.Join(roleErrs...))
			return targets
		}
		if err := r.reconcileRoleObjects(ctx, p, cr, role, rs); err != nil {
			roleErrs = append(roleErrs, fmt.Errorf("role %s: %w", role, err))
		}
		if err := r.hooks(p).rolePost(ctx, cr, role); err != nil {
			roleErrs = append(roleErrs, fmt.Errorf("role %s: %w", role, err))
		}
		if len(roleErrs) > 0 {
			r.failRole(ctx, p, cr, role, errors.Join(roleErrs...))
			if errors.Is(errors.Join(roleErrs...), failure.ErrRateLimited) {
				return targets
			}
		}
	}
	return targets
}

// reconcileGroups reconciles the groups of one role, up to
// Config.MaxConcurrentGroups at once. Each works on a copy of its ledger
// entry's inventory; the ledger is updated afterwards, in group order, so
// the status is never written to concurrently and a group that applied
// nothing gets no entry. Results and errors come back in group order.
func (r *Reconciler[CR]) reconcileGroups(ctx context.Context, p *pass, cr CR, role string, decl RoleDeclaration, agent LogAgent) ([]groupTarget, []error) {
	groups := slices.Sorted(maps.Keys(cr.GetClusterSpec().Roles[role].RoleGroups))
	type outcome struct {
		target   groupTarget
		inv      inventory.Inventory
		applied  bool
		err      error
		panicked *observe.Panic
	}
	out := make([]outcome, len(groups))
	st := cr.GetClusterStatus()
	for i, group := range groups {
		if e := findGroupStatus(st, commonsv1alpha1.RoleGroupRef{Role: role, Group: group}); e != nil {
			out[i].inv = *e.Objects.DeepCopy()
		}
	}
	sem := make(chan struct{}, r.cfg.MaxConcurrentGroups)
	var wg sync.WaitGroup
	for i, group := range groups {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			o := &out[i]
			defer func() { <-sem; wg.Done() }()
			defer func() {
				if v := recover(); v != nil {
					pv := observe.Recovered(v)
					o.panicked = &pv
				}
			}()
			o.target, o.applied, o.err = r.reconcileGroup(ctx, p, cr, RoleGroupTarget{
				Kind: r.kind, Role: role, RoleGroup: group, Declaration: decl, LogAgent: agent,
			}, &o.inv)
		}()
	}
	wg.Wait()
	for _, o := range out {
		if o.panicked != nil {
			// Re-raised on the pass's goroutine, where Reconcile turns it
			// into an error and a ReconcilePanic event.
			panic(*o.panicked) //nolint:forbidigo // moves a role group's panic to the pass's goroutine, where Reconcile recovers it
		}
	}
	var targets []groupTarget
	var errs []error
	for i, group := range groups {
		o := out[i]
		if o.applied {
			groupStatus(st, commonsv1alpha1.RoleGroupRef{Role: role, Group: group}).Objects = o.inv
		}
		if o.err != nil {
			errs = append(errs, fmt.Errorf("role group %s/%s: %w", role, group, o.err))
			continue
		}
		targets = append(targets, o.target)
	}
	return targets, errs
}

func (r *Reconciler[CR]) failRole(ctx context.Context, p *pass, cr CR, role string, err error) {
	r.hooks(p).roleError(ctx, cr, role, err)
	p.fail("", err)
}

// groupTarget is a role group applied this pass, for the health check.
type groupTarget struct {
	ref      commonsv1alpha1.RoleGroupRef
	name     string
	replicas int32
	selector map[string]string
}

// reconcileGroup settles, builds, checks and applies one role group with
// the inventory inv. Nothing of the group is applied unless all of it
// passes the checks; applied says whether the object engine ran (inv then
// holds what it recorded, also when it failed).
func (r *Reconciler[CR]) reconcileGroup(ctx context.Context, p *pass, cr CR, in RoleGroupTarget, inv *inventory.Inventory) (t groupTarget, applied bool, err error) {
	bc, warnings, err := r.cfg.ResolveRoleGroup(cr, in)
	for _, w := range warnings {
		p.warn(w.Reason, "role group %s/%s: %s", in.Role, in.RoleGroup, w.Message)
	}
	if err != nil {
		return groupTarget{}, false, err
	}
	bc.Client = r.client
	fail := func(err error) (groupTarget, bool, error) {
		r.hooks(p).groupError(ctx, cr, bc, err)
		return groupTarget{}, applied, err
	}
	if err := r.hooks(p).groupPre(ctx, cr, bc); err != nil {
		return fail(err)
	}
	objs, err := r.cfg.Handler.BuildRoleGroup(ctx, cr, bc)
	if err != nil {
		return fail(err)
	}
	list, err := r.groupObjectList(cr, bc, objs)
	if err != nil {
		return fail(err)
	}
	if err := r.checkRequirements(ctx, bc, objs); err != nil {
		return fail(err)
	}
	ref := commonsv1alpha1.RoleGroupRef{Role: in.Role, Group: in.RoleGroup}
	applied = true
	t = groupTarget{ref: ref, name: bc.ResourceName(), replicas: bc.Replicas, selector: bc.Scope.SelectorLabels()}
	if _, err := r.applyScope(ctx, p, cr, groupOwnerID(cr, ref), inv, list, nil); err != nil {
		return fail(err)
	}
	if err := r.hooks(p).groupPost(ctx, cr, bc); err != nil {
		return fail(err)
	}
	return t, true, nil
}

// checkRequirements checks the objects the group's sidecars need before
// the StatefulSet is applied (pods mounting a missing key would only
// crash-loop). The group's own ConfigMap is judged as built; anything else
// is read from the API server.
func (r *Reconciler[CR]) checkRequirements(ctx context.Context, bc *BuildContext, objs *RoleGroupObjects) error {
	reqs := bc.Sidecars.Requirements(bc.PodTarget())
	if len(reqs) == 0 {
		return nil
	}
	return sidecar.CheckAll(reqs, func(req sidecar.Requirement) (sidecar.Object, error) {
		if req.Kind == sidecar.KindConfigMap && req.Namespace == objs.ConfigMap.Namespace && req.Name == objs.ConfigMap.Name {
			return objs.ConfigMap, nil
		}
		obj := req.NewObject()
		if err := r.apiReader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: req.Name}, obj); err != nil {
			if isNotFound(err) {
				return nil, nil
			}
			return nil, err
		}
		return obj, nil
	})
}

// reconcileRoleObjects applies the role's own objects: its
// PodDisruptionBudget, spanning every group of the role, unless the user
// disabled it.
func (r *Reconciler[CR]) reconcileRoleObjects(ctx context.Context, p *pass, cr CR, role string, rs commonsv1alpha1.RoleSpec) error {
	var spec *commonsv1alpha1.PodDisruptionBudgetSpec
	if rs.RoleConfig != nil {
		spec = rs.RoleConfig.PodDisruptionBudget
	}
	scope := r.clusterScope(cr)
	scope.Role = role
	var objs []client.Object
	b := builders.NewPodDisruptionBudget(scope, spec)
	if b.Enabled() {
		pdb, err := b.Build()
		if err != nil {
			return err
		}
		objs = append(objs, pdb)
	}
	_, err := r.applyScope(ctx, p, cr, roleOwnerID(cr, role), &roleStatus(cr.GetClusterStatus(), role).Objects, objs, nil)
	return err
}

// retireRoles removes the role-level objects of roles no longer in the
// spec, and their status entries once nothing is left. Their role groups
// are the orphan cleaner's.
func (r *Reconciler[CR]) retireRoles(ctx context.Context, p *pass, cr CR) {
	st := cr.GetClusterStatus()
	spec := cr.GetClusterSpec()
	var keep []commonsv1alpha1.RoleStatus
	for i := range st.Roles {
		rs := &st.Roles[i]
		if _, inSpec := spec.Roles[rs.Role]; inSpec {
			keep = append(keep, *rs)
			continue
		}
		done, err := r.applyScope(ctx, p, cr, roleOwnerID(cr, rs.Role), &rs.Objects, nil, nil)
		if err != nil {
			p.fail("removed role "+rs.Role, err)
		}
		if !done || rs.Objects.Len() > 0 {
			keep = append(keep, *rs)
		}
	}
	st.Roles = keep
}
