package apply

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// adoptStrays takes into the inventory the objects of Options.Kinds that
// carry the owner's label but are missing from it: objects created by a
// pass whose inventory was never persisted. Those not wanted are scheduled
// for deletion like any obsolete object, so a lost inventory leaks nothing.
func (p *pass) adoptStrays(ctx context.Context, wanted map[inventory.Key]bool) error {
	r := p.r
	for _, gvk := range r.opts.Kinds {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		err := r.client.List(ctx, list, client.MatchingLabels{r.OwnerLabelKey(): p.ownerLabel}, client.UnsafeDisableDeepCopy)
		if isNoMatch(err) {
			continue
		}
		if err != nil {
			return apierr.Classify(fmt.Errorf("listing %s of owner %s: %w", gvk.Kind, p.owner.ID, err))
		}
		for i := range list.Items {
			m := &list.Items[i]
			k := inventory.Key{Group: gvk.Group, Kind: gvk.Kind, Namespace: m.Namespace, Name: m.Name}
			if p.item(k) != nil || wanted[k] || m.DeletionTimestamp != nil {
				continue
			}
			p.idx.Add(p.inv, inventory.Item{
				Group: k.Group, Version: gvk.Version, Kind: k.Kind, Namespace: k.Namespace, Name: k.Name,
				Phase: inventory.PhaseScheduledForDeletion, ResourceVersion: m.ResourceVersion,
			})
			p.log.Info("found an object of the owner missing from its inventory", "object", k.String())
		}
	}
	return nil
}
