package reconciler

import (
	"context"
	"errors"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Rendering is the objects of one scope as a pass would send them to the
// object engine.
type Rendering struct {
	// Role and RoleGroup name the scope, as in ScopePlan.
	Role, RoleGroup string
	// Objects are the scope's objects in the order the product built
	// them, each owned by the resource.
	Objects []client.Object
}

// Render returns the objects the next pass would apply for cr, scope by
// scope (sorted as Plan sorts them), without applying, planning or writing
// anything: no write and no dry run is sent, so the caller needs no more
// than the rights to read what a pass reads (the resource's status by its
// name, its dependencies, the product's own reads). It shows every scope,
// also those an ordered rollout would reach only in a later pass. Like
// Plan it waits for the manager's cache to sync, runs no hooks and refuses
// a resource in a namespace the operator does not manage. The error joins
// every failure the pass would meet; the scopes rendered before one are
// returned with it. On a reconciler set up with SetupOffline it reads
// nothing from a cluster: the resource and what it depends on come from
// the objects given there.
func (r *Reconciler[CR]) Render(ctx context.Context, cr CR) ([]Rendering, error) {
	if r.engine == nil {
		return nil, errors.New("product reconciler: none of SetupWithManager, SetupForPlanning and SetupOffline was called")
	}
	planned, _, err := r.planTarget(ctx, cr)
	if err != nil {
		return nil, err
	}
	p := newPass(logr.FromContextOrDiscard(ctx), r.cfg.Clock.Now())
	p.planning = &planLog{render: true}
	r.run(ctx, p, planned)
	scopes, _ := p.planning.sorted()
	out := make([]Rendering, 0, len(scopes))
	for _, s := range scopes {
		if len(s.rendered) == 0 {
			continue // a role removed from the spec
		}
		out = append(out, Rendering{Role: s.Role, RoleGroup: s.RoleGroup, Objects: s.rendered})
	}
	return out, p.err()
}
