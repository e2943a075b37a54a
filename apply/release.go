package apply

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure/apierr"
	"github.com/opkit-dev/opkit/api/inventory"
)

// keyAction is an item and what becomes of it.
type keyAction struct {
	key    inventory.Key
	action Action
}

// letGo drops released and orphaned items from the inventory, keeping
// their objects but taking the owner's marks off them, so that no later
// pass of the owner takes them for strays (Options.Kinds) and another
// owner may adopt them. An item whose object cannot be unmarked stays for
// the next pass.
func (p *pass) letGo(ctx context.Context, items []keyAction) []Change {
	changes := make([]Change, len(items))
	forEach(len(items), p.r.opts.Concurrency, func(n int) {
		it := p.item(items[n].key)
		ref := it.Ref()
		if err := p.disown(ctx, ref); err != nil {
			err = apierr.Classify(err)
			p.log.Error(err, "letting go failed", "object", ref.String())
			changes[n] = Change{Object: ref, Action: ActionFailed, Err: err}
			return
		}
		p.forget(items[n].key)
		p.log.Info(string(items[n].action), "object", ref.String())
		changes[n] = Change{Object: ref, Action: items[n].action}
	})
	return changes
}

// disown removes the owner label and the owner and digest annotations from
// the live object, if it still carries this owner's.
func (p *pass) disown(ctx context.Context, ref inventory.Ref) error {
	r := p.r
	live, err := r.get(ctx, r.client, ref, readLite)
	if err != nil || live == nil || p.ownerOf(live) != p.owner.ID {
		return err
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"labels":      map[string]any{r.OwnerLabelKey(): nil},
		"annotations": map[string]any{r.prefix + AnnotationOwnerID: nil, r.prefix + AnnotationDigest: nil},
	}})
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(ref.GroupVersionKind())
	u.SetNamespace(ref.Namespace)
	u.SetName(ref.Name)
	err = r.client.Patch(ctx, u, client.RawPatch(types.MergePatchType, patch), client.FieldOwner(r.opts.FieldOwner))
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("removing the owner marks of %s: %w", ref, err)
	}
	return nil
}
