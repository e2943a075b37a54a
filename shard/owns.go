package shard

import (
	"context"
	"fmt"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// Owns reports whether this member may run a pass over obj now. Call it at
// the start of every pass with the resource as the pass read it: a pass can
// be queued before the resource moved and run after.
//
// It is false while the member is not live and for resources labelled with
// another owner or none. When another member asked for the resource, Owns
// acknowledges the drain instead: no pass of this member is running for it
// (a controller runs one pass per resource at a time and this is the start
// of one), so it removes both labels, leaving the resource to be claimed,
// and returns false. An error means the acknowledgement failed; the pass
// should be retried, and Owns will try again.
func (m *Member) Owns(ctx context.Context, obj client.Object) (bool, error) {
	if !m.Live() {
		return false, nil
	}
	labels := obj.GetLabels()
	if labels[m.shardKey] != m.opts.Member {
		return false, nil
	}
	asker, drain := labels[m.drainKey]
	if !drain {
		return true, nil
	}
	gvk, err := m.client.GroupVersionKindFor(obj)
	if err != nil {
		return false, fmt.Errorf("acknowledging the drain of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	ref := Ref{GroupVersionKind: gvk, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if err := m.patchLabels(ctx, ref, obj.GetResourceVersion(), map[string]any{m.shardKey: nil, m.drainKey: nil}); err != nil {
		return false, fmt.Errorf("acknowledging the drain of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	logr.FromContextOrDiscard(ctx).Info("shard drain acknowledged",
		"resource", client.ObjectKeyFromObject(obj), "member", m.opts.Member, "askedBy", asker)
	return false, nil
}

// DrainRequested returns a predicate that admits every event of a resource
// whose drain was asked for. Add it, with predicate.Or, beside a
// controller's own predicates for the sharded kind, so that a drain is
// acknowledged even where those would filter a label-only change out.
func (m *Member) DrainRequested() predicate.Predicate {
	return predicate.NewPredicateFuncs(func(obj client.Object) bool {
		_, ok := obj.GetLabels()[m.drainKey]
		return ok
	})
}

// ObjectLabels returns the label every object a resource's pass writes
// carries: the owner's name under the shard label. The objects follow the
// resource: its next owner writes them with its own name, and each
// member's cache holds only the objects of the resources it owns.
func (m *Member) ObjectLabels() map[string]string {
	return map[string]string{m.shardKey: m.opts.Member}
}
