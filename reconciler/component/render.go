package component

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/generators"
)

// Rendering is a component's objects as the next pass would apply them.
type Rendering struct {
	// Revision and NewRevision are as in Plan.
	Revision    int64
	NewRevision bool
	// Objects are the rendered objects in the generator's order: the
	// recorded render when the inputs did not change since it was made
	// (a chart's random values stay as applied), else a new one.
	Objects []client.Object
	// Warnings are the generator's warnings while rendering.
	Warnings []generators.Warning
}

// Render returns the objects the next pass would apply for comp, without
// applying, planning or writing anything: no write and no dry run is sent,
// so the caller needs no more than the rights to read what a pass reads
// (the component and its render record by name, its references, what the
// generator looks up). Like Plan it waits for the manager's cache to sync,
// runs no hooks and refuses a component in a namespace the operator does
// not manage; a suspended component or one being deleted renders to no
// objects. On a reconciler set up with SetupOffline it reads nothing from
// a cluster (see there).
func (r *Reconciler[T]) Render(ctx context.Context, comp T) (Rendering, error) {
	p, _, err := r.planPass(ctx, comp)
	if err != nil || p == nil || p.deleting {
		return Rendering{}, err
	}
	var out Plan
	err = r.planRender(ctx, p, &out)
	return Rendering{Revision: out.Revision, NewRevision: out.NewRevision, Objects: p.objects, Warnings: out.Warnings}, err
}
