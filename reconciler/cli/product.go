package cli

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// ForProduct returns the commands of a product reconciler. r must be new:
// the commands set it up for planning (SetupForPlanning) in a manager of
// their own, built from the user's kubeconfig.
func ForProduct[CR reconciler.Object[CR]](r *reconciler.Reconciler[CR], opts Options) *Command {
	return newCommand(product[CR]{r: r}, opts)
}

type product[CR reconciler.Object[CR]] struct {
	r *reconciler.Reconciler[CR]
}

func (p product[CR]) newObject() (client.Object, error) { return newOf[CR]() }

func (p product[CR]) managerOptions() (cache.Options, client.Options) { return p.r.ManagerOptions() }

func (p product[CR]) setupForPlanning(mgr manager.Manager) error { return p.r.SetupForPlanning(mgr) }

func (p product[CR]) setupOffline(scheme *runtime.Scheme, objects []client.Object) error {
	return p.r.SetupOffline(scheme, objects...)
}

func (p product[CR]) permissions(scheme *runtime.Scheme, resolver rbac.Resolver) (rbac.Permissions, error) {
	return p.r.Permissions(scheme, resolver)
}

func (p product[CR]) plan(ctx context.Context, obj client.Object) (report, error) {
	cr, ok := obj.(CR)
	if !ok {
		return report{}, fmt.Errorf("cli: %T is not the reconciled type", obj)
	}
	plan, err := p.r.Plan(ctx, cr)
	out := report{Resource: plan.Resource, Exists: plan.Exists, Conditions: plan.Conditions, hasChanges: plan.HasChanges()}
	if plan.Paused {
		out.Notes = append(out.Notes, "reconciliation is paused (spec.clusterOperation.reconciliationPaused): nothing changes")
	}
	if plan.Deleting {
		out.Notes = append(out.Notes, "the resource is being deleted: garbage collection removes its objects")
	}
	for _, s := range plan.Scopes {
		for _, c := range s.Objects.Changes {
			out.Changes = append(out.Changes, change{Scope: scopeName(s.Role, s.RoleGroup), PlannedChange: c})
		}
	}
	for _, g := range plan.Retired {
		rt := retirement{Role: g.RoleGroup.Role, Group: g.RoleGroup.Group, Stage: string(g.Stage), Err: g.Err}
		for _, a := range g.Actions {
			rt.Actions = append(rt.Actions, fmt.Sprintf("%s %s %s", a.Type, a.Object.Kind, a.Object.Name))
		}
		out.Retired = append(out.Retired, rt)
	}
	for _, e := range plan.Events {
		out.Events = append(out.Events, event{Type: e.Type, Reason: e.Reason, Message: e.Message})
	}
	return out, err
}

func (p product[CR]) render(ctx context.Context, obj client.Object) ([]rendered, []string, error) {
	cr, ok := obj.(CR)
	if !ok {
		return nil, nil, fmt.Errorf("cli: %T is not the reconciled type", obj)
	}
	scopes, err := p.r.Render(ctx, cr)
	out := make([]rendered, 0, len(scopes))
	for _, s := range scopes {
		out = append(out, rendered{Scope: scopeName(s.Role, s.RoleGroup), Objects: s.Objects})
	}
	return out, nil, err
}

func (p product[CR]) status(obj client.Object) statusView {
	cr, _ := obj.(CR)
	st := cr.GetClusterStatus()
	v := statusView{Conditions: st.Conditions}
	v.Summary = append(v.Summary, fmt.Sprintf("generation %d, observed %d", cr.GetGeneration(), st.ObservedGeneration))
	v.Scopes = append(v.Scopes, inventoryScope{Scope: "cluster", Items: st.Objects.Items})
	for _, r := range st.Roles {
		v.Scopes = append(v.Scopes, inventoryScope{Scope: r.Role, Items: r.Objects.Items})
	}
	for _, g := range st.RoleGroups {
		v.Scopes = append(v.Scopes, inventoryScope{Scope: scopeName(g.Role, g.Group), Items: g.Objects.Items})
	}
	return v
}
