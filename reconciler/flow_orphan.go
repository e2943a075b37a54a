package reconciler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/orphan"
)

// cleanOrphans advances the teardown of every role group no longer in the
// spec (found in the ledger or live) by one step, drops the groups the
// cleaner reclaimed from the ledger, and reports the rest: a condition
// line per group ("server/old: Draining until 2026-11-30T10:42:00Z") and a Normal event
// per step taken.
func (r *Reconciler[CR]) cleanOrphans(ctx context.Context, p *pass, cr CR) {
	spec := cr.GetClusterSpec()
	st := cr.GetClusterStatus()
	in := orphan.Input{Owner: cr, Ledger: st.RoleGroups}
	for _, role := range slices.Sorted(maps.Keys(spec.Roles)) {
		in.DeclaredRoles = append(in.DeclaredRoles, role)
		for _, group := range slices.Sorted(maps.Keys(spec.Roles[role].RoleGroups)) {
			in.Declared = append(in.Declared, commonsv1alpha1.RoleGroupRef{Role: role, Group: group})
		}
	}
	if p.planning != nil && p.planning.render {
		return // a rendering shows the objects of the spec only
	}
	cleaner := r.cleaner
	if p.planning != nil {
		cleaner = r.planCleaner
	}
	res, err := cleaner.Clean(ctx, in)
	if p.planning != nil {
		p.planning.retire(res.Groups)
	}
	st.RoleGroups = res.Prune(st.RoleGroups)
	for _, a := range res.Actions() {
		msg := fmt.Sprintf("%s %s %s of removed role group %s", a.Type, a.Object.Kind, a.Object.Name, groupName(a.RoleGroup))
		if a.Type == orphan.ActionDeletedAfterDrainTimeout {
			p.warnRelated(&a.Object, ReasonOrphanCleanup, "%s with pods still terminating", msg)
			continue
		}
		p.note(&a.Object, ReasonOrphanCleanup, "%s", msg)
	}
	for _, g := range res.Groups {
		if g.Stage == orphan.StageReclaimed {
			continue
		}
		line := fmt.Sprintf("%s: %s", groupName(g.RoleGroup), g.Stage)
		// The deadline, not the time left: the message stays the same from
		// pass to pass of a stage, so waiting out a drain writes no status.
		if !g.Deadline.IsZero() {
			line += " until " + g.Deadline.UTC().Format(time.RFC3339)
		}
		if g.Err != nil {
			line += fmt.Sprintf(" (%v)", g.Err)
		}
		p.cleanup = append(p.cleanup, line)
	}
	p.wakeAfter(res.RequeueAfter)
	switch {
	case err == nil:
	case errors.Is(err, failure.ErrRateLimited):
		p.fail("orphan cleanup", err)
	default:
		// A failed step stays with its group (listed in the condition) and
		// is tried again; it is no reason to call the cluster degraded.
		p.log.Error(err, "orphan cleanup step failed")
		if len(p.cleanup) == 0 {
			p.cleanup = append(p.cleanup, err.Error())
		}
		p.wakeAfter(r.cfg.ProgressInterval)
	}
}

func groupName(ref commonsv1alpha1.RoleGroupRef) string {
	if ref.Group == "" {
		return ref.Role
	}
	return ref.Role + "/" + ref.Group
}
