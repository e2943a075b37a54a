package reconciler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
)

// Hook points: a product extends a pass at the cluster, role and role-group
// level, before and after the scope is reconciled, and when it failed.
// Hooks of one point run in ascending Priority, then in registration order.
// A hook's error fails its scope (the pass, the role, the role group) like
// any other failure of that scope; with StopOnError the hooks registered
// after it at the same point do not run.

// ClusterHook extends the pass of a whole cluster resource.
type ClusterHook[CR Cluster] struct {
	// Name identifies the hook in errors and logs; required and unique
	// among the cluster hooks of a Hooks.
	Name string
	// Priority orders the hooks of a point, lowest first.
	Priority int
	// StopOnError skips the later hooks of the same point when this one
	// fails.
	StopOnError bool
	// PreReconcile runs before anything of the cluster is applied (after
	// its ServiceAccount). It may change the resource's status, never its
	// spec.
	PreReconcile func(ctx context.Context, cr CR) error
	// PostReconcile runs after the roles, the orphan cleanup and the
	// health check, before the status is written.
	PostReconcile func(ctx context.Context, cr CR) error
	// OnError runs when the pass failed, with its error.
	OnError func(ctx context.Context, cr CR, err error)
}

// RoleHook extends the reconciliation of one role.
type RoleHook[CR Cluster] struct {
	// Name identifies the hook; required and unique among the role hooks.
	Name string
	// Priority orders the hooks of a point, lowest first.
	Priority int
	// StopOnError skips the later hooks of the same point when this one
	// fails.
	StopOnError bool
	// PreReconcile runs before the role's groups are reconciled.
	PreReconcile func(ctx context.Context, cr CR, role string) error
	// PostReconcile runs after the role's groups and its role-level
	// objects.
	PostReconcile func(ctx context.Context, cr CR, role string) error
	// OnError runs when the role failed, with its error.
	OnError func(ctx context.Context, cr CR, role string, err error)
}

// RoleGroupHook extends the reconciliation of one role group. The groups
// of a role are reconciled concurrently (Config.MaxConcurrentGroups), so
// its functions must be safe for concurrent use; they may change nothing
// of the cluster resource.
type RoleGroupHook[CR Cluster] struct {
	// Name identifies the hook; required and unique among the role-group
	// hooks.
	Name string
	// Priority orders the hooks of a point, lowest first.
	Priority int
	// StopOnError skips the later hooks of the same point when this one
	// fails.
	StopOnError bool
	// PreReconcile runs after the group's build context is resolved and
	// before its objects are built.
	PreReconcile func(ctx context.Context, cr CR, bc *BuildContext) error
	// PostReconcile runs after the group's objects are applied.
	PostReconcile func(ctx context.Context, cr CR, bc *BuildContext) error
	// OnError runs when the group failed, with its error.
	OnError func(ctx context.Context, cr CR, bc *BuildContext, err error)
}

// Hooks is a product's registry of extensions, typed for its cluster
// resource. Build it at startup with NewHooks and the Add methods, before
// the reconciler is set up; it is read-only afterwards. A nil *Hooks runs
// nothing.
type Hooks[CR Cluster] struct {
	cluster []ClusterHook[CR]
	role    []RoleHook[CR]
	group   []RoleGroupHook[CR]
}

// NewHooks returns an empty registry.
func NewHooks[CR Cluster]() *Hooks[CR] { return &Hooks[CR]{} }

// AddCluster registers a cluster hook. An empty or duplicate name is an
// error.
func (h *Hooks[CR]) AddCluster(hook ClusterHook[CR]) error {
	if err := checkHookName("cluster", hook.Name, h.cluster, func(x ClusterHook[CR]) string { return x.Name }); err != nil {
		return err
	}
	h.cluster = insertByPriority(h.cluster, hook, func(x ClusterHook[CR]) int { return x.Priority })
	return nil
}

// AddRole registers a role hook. An empty or duplicate name is an error.
func (h *Hooks[CR]) AddRole(hook RoleHook[CR]) error {
	if err := checkHookName("role", hook.Name, h.role, func(x RoleHook[CR]) string { return x.Name }); err != nil {
		return err
	}
	h.role = insertByPriority(h.role, hook, func(x RoleHook[CR]) int { return x.Priority })
	return nil
}

// AddRoleGroup registers a role-group hook. An empty or duplicate name is
// an error.
func (h *Hooks[CR]) AddRoleGroup(hook RoleGroupHook[CR]) error {
	if err := checkHookName("role-group", hook.Name, h.group, func(x RoleGroupHook[CR]) string { return x.Name }); err != nil {
		return err
	}
	h.group = insertByPriority(h.group, hook, func(x RoleGroupHook[CR]) int { return x.Priority })
	return nil
}

func checkHookName[H any](level, name string, have []H, nameOf func(H) string) error {
	if name == "" {
		return fmt.Errorf("%s hook: the name must not be empty", level)
	}
	if slices.ContainsFunc(have, func(x H) bool { return nameOf(x) == name }) {
		return fmt.Errorf("%s hook %q is already registered", level, name)
	}
	return nil
}

// insertByPriority appends hook after every hook of lower or equal
// priority, so equal priorities keep registration order.
func insertByPriority[H any](hooks []H, hook H, prio func(H) int) []H {
	i, _ := slices.BinarySearchFunc(hooks, prio(hook)+1, func(x H, p int) int { return cmp.Compare(prio(x), p) })
	return slices.Insert(hooks, i, hook)
}

func (x ClusterHook[CR]) meta() (string, bool)   { return x.Name, x.StopOnError }
func (x RoleHook[CR]) meta() (string, bool)      { return x.Name, x.StopOnError }
func (x RoleGroupHook[CR]) meta() (string, bool) { return x.Name, x.StopOnError }

// runHooks calls, in order, the function pick returns for each hook (nil
// means the hook has none at this point) and joins the errors, each named
// by its hook; a failing hook with StopOnError ends the run.
func runHooks[H interface{ meta() (string, bool) }](hooks []H, pick func(H) func() error) error {
	var errs []error
	for _, hk := range hooks {
		fn := pick(hk)
		if fn == nil {
			continue
		}
		if err := fn(); err != nil {
			name, stop := hk.meta()
			errs = append(errs, fmt.Errorf("hook %s: %w", name, err))
			if stop {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// bind returns f applied to its arguments, or nil when f is nil.
func bind[A, B any](f func(context.Context, A, B) error, ctx context.Context, a A, b B) func() error {
	if f == nil {
		return nil
	}
	return func() error { return f(ctx, a, b) }
}

func (h *Hooks[CR]) clusterPre(ctx context.Context, cr CR) error {
	if h == nil {
		return nil
	}
	return runHooks(h.cluster, func(x ClusterHook[CR]) func() error { return bindCluster(x.PreReconcile, ctx, cr) })
}

func (h *Hooks[CR]) clusterPost(ctx context.Context, cr CR) error {
	if h == nil {
		return nil
	}
	return runHooks(h.cluster, func(x ClusterHook[CR]) func() error { return bindCluster(x.PostReconcile, ctx, cr) })
}

func bindCluster[CR any](f func(context.Context, CR) error, ctx context.Context, cr CR) func() error {
	if f == nil {
		return nil
	}
	return func() error { return f(ctx, cr) }
}

func (h *Hooks[CR]) rolePre(ctx context.Context, cr CR, role string) error {
	if h == nil {
		return nil
	}
	return runHooks(h.role, func(x RoleHook[CR]) func() error { return bind(x.PreReconcile, ctx, cr, role) })
}

func (h *Hooks[CR]) rolePost(ctx context.Context, cr CR, role string) error {
	if h == nil {
		return nil
	}
	return runHooks(h.role, func(x RoleHook[CR]) func() error { return bind(x.PostReconcile, ctx, cr, role) })
}

func (h *Hooks[CR]) groupPre(ctx context.Context, cr CR, bc *BuildContext) error {
	if h == nil {
		return nil
	}
	return runHooks(h.group, func(x RoleGroupHook[CR]) func() error { return bind(x.PreReconcile, ctx, cr, bc) })
}

func (h *Hooks[CR]) groupPost(ctx context.Context, cr CR, bc *BuildContext) error {
	if h == nil {
		return nil
	}
	return runHooks(h.group, func(x RoleGroupHook[CR]) func() error { return bind(x.PostReconcile, ctx, cr, bc) })
}

// clusterError, roleError and groupError tell every OnError of the level.
func (h *Hooks[CR]) clusterError(ctx context.Context, cr CR, err error) {
	if h == nil {
		return
	}
	for _, x := range h.cluster {
		if x.OnError != nil {
			x.OnError(ctx, cr, err)
		}
	}
}

func (h *Hooks[CR]) roleError(ctx context.Context, cr CR, role string, err error) {
	if h == nil {
		return
	}
	for _, x := range h.role {
		if x.OnError != nil {
			x.OnError(ctx, cr, role, err)
		}
	}
}

func (h *Hooks[CR]) groupError(ctx context.Context, cr CR, bc *BuildContext, err error) {
	if h == nil {
		return
	}
	for _, x := range h.group {
		if x.OnError != nil {
			x.OnError(ctx, cr, bc, err)
		}
	}
}
