package component

import (
	"context"
	"fmt"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// HookFunc is called at a fixed point of a pass with the manager's client
// and the component as the pass sees it (its status possibly not written
// yet). A hook may change the component's status, never its metadata or
// spec. An error stops the pass: a failure.ErrRetriable (or rate-limited,
// or requeue) error is retried after its delay, any other error is the
// component's Error state. Post hooks run only when their step succeeded.
// A pass that fails after a hook ran is repeated, hooks included: make
// hooks idempotent.
type HookFunc[T Component] func(ctx context.Context, c client.Client, component T) error

// hookPoint names where a hook runs.
type hookPoint int

const (
	postRead hookPoint = iota
	preReconcile
	postReconcile
	preDelete
	postDelete
	hookPoints
)

func (h hookPoint) String() string {
	return [...]string{"post-read", "pre-reconcile", "post-reconcile", "pre-delete", "post-delete"}[h]
}

// hooks holds the registered hooks; registration may happen at any time
// and counts from the next pass.
type hooks[T Component] struct {
	mu  sync.RWMutex
	fns [hookPoints][]HookFunc[T]
}

func (h *hooks[T]) add(at hookPoint, fn HookFunc[T]) {
	if fn == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fns[at] = append(h.fns[at], fn)
}

// run calls the hooks of at in registration order; the first error stops.
func (h *hooks[T]) run(ctx context.Context, at hookPoint, c client.Client, component T) error {
	h.mu.RLock()
	fns := h.fns[at]
	h.mu.RUnlock()
	for i, fn := range fns {
		if err := fn(ctx, c, component); err != nil {
			return &HookError{Hook: at.String(), Index: i, Err: err}
		}
	}
	return nil
}

// HookError is a hook's error with where it happened. Its class is the
// hook error's own.
type HookError struct {
	// Hook is "post-read", "pre-reconcile", "post-reconcile", "pre-delete"
	// or "post-delete".
	Hook string
	// Index is the hook's position among those of its kind.
	Index int
	// Err is what the hook returned.
	Err error
}

// Error returns "<hook> hook <index>: <err>".
func (e *HookError) Error() string { return fmt.Sprintf("%s hook %d: %v", e.Hook, e.Index, e.Err) }

// Unwrap returns Err.
func (e *HookError) Unwrap() error { return e.Err }

// WithPostReadHook registers a hook called on every pass right after the
// component was read, before anything else happens.
func (r *Reconciler[T]) WithPostReadHook(hook HookFunc[T]) *Reconciler[T] {
	r.hooks.add(postRead, hook)
	return r
}

// WithPreReconcileHook registers a hook called, while the component is not
// being deleted, right before its objects are rendered and applied.
func (r *Reconciler[T]) WithPreReconcileHook(hook HookFunc[T]) *Reconciler[T] {
	r.hooks.add(preReconcile, hook)
	return r
}

// WithPostReconcileHook registers a hook called, while the component is
// not being deleted, once its objects are applied and ready.
func (r *Reconciler[T]) WithPostReconcileHook(hook HookFunc[T]) *Reconciler[T] {
	r.hooks.add(postReconcile, hook)
	return r
}

// WithPreDeleteHook registers a hook called, while the component is being
// deleted, right before its objects are deleted.
func (r *Reconciler[T]) WithPreDeleteHook(hook HookFunc[T]) *Reconciler[T] {
	r.hooks.add(preDelete, hook)
	return r
}

// WithPostDeleteHook registers a hook called, while the component is being
// deleted, once its objects are gone and before its finalizer is removed.
func (r *Reconciler[T]) WithPostDeleteHook(hook HookFunc[T]) *Reconciler[T] {
	r.hooks.add(postDelete, hook)
	return r
}

type clientsKey struct{}

// passClients are the clients of one pass, carried in the context of the
// hooks that run after the clients are known.
type passClients struct {
	target client.Client
	local  client.Client
}

func withClients(ctx context.Context, target, local client.Client) context.Context {
	return context.WithValue(ctx, clientsKey{}, passClients{target: target, local: local})
}

// ClientFromContext returns the target client of the pass: the client the
// objects are applied with (remote or impersonated when the component says
// so). It is set for every hook but the post-read hook; nil otherwise. In
// the component's own cluster without impersonation it is the manager's
// client, whose cache (built with ManagerOptions) holds only the
// reconciler's own objects of the kinds it renders.
func ClientFromContext(ctx context.Context) client.Client {
	c, _ := ctx.Value(clientsKey{}).(passClients)
	return c.target
}

// LocalClientFromContext returns the local client of the pass: the
// component's own cluster, impersonating when the component says so. It
// is set for every hook but the post-read hook; nil otherwise.
func LocalClientFromContext(ctx context.Context) client.Client {
	c, _ := ctx.Value(clientsKey{}).(passClients)
	return c.local
}
