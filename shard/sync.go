package shard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
)

// SyncResult is what one Sync saw and did.
type SyncResult struct {
	// View is the member's view of the ring.
	View View
	// Actions are the changes made, in the order made.
	Actions []Action
	// Superseded are the changes not made because their resource or Lease
	// had changed since it was read; the next Sync reviews them afresh.
	Superseded []Action
}

// Sync reviews the assignment once: it reads the resources and then the
// ring's Leases, and makes the changes the plan gives this member (see
// Step). It does nothing while the member is not live. Start calls it every
// RenewInterval; tests and callers that drive the clock call it directly.
func (m *Member) Sync(ctx context.Context) (SyncResult, error) {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	if !m.Live() {
		return SyncResult{}, nil
	}
	// The resources are read before the Leases: an owner found on a
	// resource then either has a Lease in the later list or has lost it.
	resources, err := m.listResources(ctx)
	if err != nil {
		return SyncResult{}, err
	}
	leases := &coordinationv1.LeaseList{}
	if err := m.reader.List(ctx, leases, client.InNamespace(m.opts.Namespace),
		client.MatchingLabels{commonsv1alpha1.LabelShardRing: m.opts.Ring}); err != nil {
		return SyncResult{}, fmt.Errorf("listing the leases of ring %q: %w", m.opts.Ring, err)
	}
	res := SyncResult{View: m.observer.observe(leases.Items, m.opts.Clock.Now(), m.opts.Member, true)}
	ring := NewRing(res.View.RingMembers(), m.opts.VirtualNodes)
	m.ring.Store(ring)
	var errs []error
	for _, a := range plan(m.opts.Member, res.View, ring, resources) {
		if !m.Live() {
			// The Lease lapsed during this review: a member that is not
			// live changes nothing; the next review starts afresh.
			res.Superseded = append(res.Superseded, a)
			continue
		}
		switch err := m.act(ctx, a); {
		case err == nil:
			res.Actions = append(res.Actions, a)
		case apierrors.IsConflict(err) || apierrors.IsNotFound(err):
			res.Superseded = append(res.Superseded, a)
		default:
			errs = append(errs, fmt.Errorf("%s %s/%s: %w", a.Step, a.Resource.Namespace, a.Resource.Name, err))
		}
	}
	return res, errors.Join(errs...)
}

func (m *Member) listResources(ctx context.Context) ([]Resource, error) {
	namespaces := m.opts.Namespaces
	if len(namespaces) == 0 {
		namespaces = []string{metav1.NamespaceAll}
	}
	var out []Resource
	for _, gvk := range m.opts.Resources {
		for _, ns := range namespaces {
			page, err := m.listPages(ctx, gvk, ns)
			if err != nil {
				return nil, err
			}
			out = append(out, page...)
		}
	}
	return out, nil
}

// listPageSize bounds one list request of the resources' metadata.
const listPageSize = 500

func (m *Member) listPages(ctx context.Context, gvk schema.GroupVersionKind, ns string) ([]Resource, error) {
	var out []Resource
	cont := ""
	for {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := m.reader.List(ctx, list, client.InNamespace(ns), client.Limit(listPageSize), client.Continue(cont)); err != nil {
			return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for _, item := range list.Items {
			out = append(out, Resource{
				Ref:             Ref{GroupVersionKind: gvk, Namespace: item.Namespace, Name: item.Name},
				ResourceVersion: item.ResourceVersion,
				Owner:           item.Labels[m.shardKey],
				Drain:           item.Labels[m.drainKey],
			})
		}
		if cont = list.Continue; cont == "" {
			return out, nil
		}
	}
}

// act makes one change, conditioned on the version it was planned from.
func (m *Member) act(ctx context.Context, a Action) error {
	switch a.Step {
	case StepFence:
		lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: m.opts.Namespace, Name: a.From}}
		return m.client.Delete(ctx, lease, client.Preconditions{ResourceVersion: &a.ResourceVersion})
	case StepDrain:
		return m.patchLabels(ctx, a.Resource, a.ResourceVersion, map[string]any{m.drainKey: m.opts.Member})
	default:
		return m.patchLabels(ctx, a.Resource, a.ResourceVersion, map[string]any{
			m.shardKey: m.opts.Member, m.drainKey: nil, m.bucketKey: strconv.Itoa(Bucket(a.Resource.Key())),
		})
	}
}

// patchLabels sets (or, for nil, removes) labels on a resource with a merge
// patch that fails with a conflict unless the resource is still at version.
func (m *Member) patchLabels(ctx context.Context, ref Ref, version string, labels map[string]any) error {
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": version, "labels": labels}})
	if err != nil {
		return err
	}
	obj := &metav1.PartialObjectMetadata{}
	obj.SetGroupVersionKind(ref.GroupVersionKind)
	obj.Namespace, obj.Name = ref.Namespace, ref.Name
	return m.client.Patch(ctx, obj, client.RawPatch(types.MergePatchType, body))
}
