package cli

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/rbac"
)

// ForComponent returns the commands of a component reconciler. r must be
// new: the commands set it up for planning (SetupForPlanning) in a manager
// of their own, built from the user's kubeconfig.
func ForComponent[T component.Component](r *component.Reconciler[T], opts Options) *Command {
	return newCommand(comp[T]{r: r}, opts)
}

type comp[T component.Component] struct {
	r *component.Reconciler[T]
}

func (c comp[T]) newObject() (client.Object, error) { return newOf[T]() }

func (c comp[T]) managerOptions() (cache.Options, client.Options) { return c.r.ManagerOptions() }

func (c comp[T]) setupForPlanning(mgr manager.Manager) error { return c.r.SetupForPlanning(mgr) }

func (c comp[T]) setupOffline(scheme *runtime.Scheme, objects []client.Object) error {
	return c.r.SetupOffline(scheme, objects...)
}

func (c comp[T]) permissions(scheme *runtime.Scheme, resolver rbac.Resolver) (rbac.Permissions, error) {
	return c.r.Permissions(scheme, resolver)
}

func (c comp[T]) plan(ctx context.Context, obj client.Object) (report, error) {
	t, ok := obj.(T)
	if !ok {
		return report{}, fmt.Errorf("cli: %T is not the reconciled type", obj)
	}
	plan, err := c.r.Plan(ctx, t)
	out := report{Resource: plan.Component, Exists: plan.Exists, hasChanges: plan.HasChanges(), Warnings: warnings(plan.Warnings)}
	if plan.NewRevision {
		out.Notes = append(out.Notes, fmt.Sprintf("the inputs changed: revision %d", plan.Revision))
	}
	if plan.State != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("state after the passes: %s", plan.State))
	}
	if plan.Ready.Type != "" {
		out.Conditions = append(out.Conditions, plan.Ready)
	}
	for _, ch := range plan.Objects.Changes {
		out.Changes = append(out.Changes, change{PlannedChange: ch})
	}
	return out, err
}

func (c comp[T]) render(ctx context.Context, obj client.Object) ([]rendered, []string, error) {
	t, ok := obj.(T)
	if !ok {
		return nil, nil, fmt.Errorf("cli: %T is not the reconciled type", obj)
	}
	r, err := c.r.Render(ctx, t)
	if len(r.Objects) == 0 {
		return nil, warnings(r.Warnings), err
	}
	return []rendered{{Objects: r.Objects}}, warnings(r.Warnings), err
}

func (c comp[T]) status(obj client.Object) statusView {
	t, _ := obj.(T)
	st := t.GetStatus()
	v := statusView{Conditions: st.Conditions}
	v.Summary = append(v.Summary,
		fmt.Sprintf("state %s, revision %d", orNone(string(st.State)), st.Revision),
		fmt.Sprintf("generation %d, observed %d, applied %d", t.GetGeneration(), st.ObservedGeneration, st.AppliedGeneration))
	v.Scopes = append(v.Scopes, inventoryScope{Items: st.Inventory.Items})
	return v
}

func warnings(ws []generators.Warning) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.Reason+": "+w.Message)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
