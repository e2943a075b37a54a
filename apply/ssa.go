package apply

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/inventory"
)

// serverSideApply sends want as a server-side apply. With override it
// first moves to our field manager the fields that client-side tools wrote
// (kubectl's managers, and our own update entries), so that the apply can
// remove fields want no longer states. Fields other controllers own, such
// as an injected CA bundle, stay theirs.
func (p *pass) serverSideApply(ctx context.Context, ref inventory.Ref, want *unstructured.Unstructured, override bool) (*unstructured.Unstructured, error) {
	r := p.r
	if override {
		// The managed fields are needed; a cache usually strips them.
		live, err := r.getWith(ctx, r.reader, ref, false)
		if err != nil {
			return nil, err
		}
		if live == nil {
			return nil, failure.Retriable(fmt.Errorf("%s disappeared while being updated", ref), typeWait)
		}
		u := live.(*unstructured.Unstructured)
		managers := sets.New[string]()
		for _, mf := range u.GetManagedFields() {
			if mf.Operation == metav1.ManagedFieldsOperationUpdate && r.isClientSideManager(mf.Manager) {
				managers.Insert(mf.Manager)
			}
		}
		patch, err := csaupgrade.UpgradeManagedFieldsPatch(u, managers, r.opts.FieldOwner)
		if err != nil {
			return nil, fmt.Errorf("moving field ownership: %w", err)
		}
		if patch != nil {
			if err := r.client.Patch(ctx, u.DeepCopy(), client.RawPatch(types.JSONPatchType, patch)); err != nil {
				return nil, fmt.Errorf("moving field ownership: %w", err)
			}
		}
	}
	ac := client.ApplyConfigurationFromUnstructured(want)
	if err := r.client.Apply(ctx, ac, client.FieldOwner(r.opts.FieldOwner), client.ForceOwnership); err != nil {
		return nil, err
	}
	return want, nil
}

// isClientSideManager reports the field managers whose update entries
// ssa-override takes over: kubectl's (kubectl, kubectl-edit,
// kubectl-client-side-apply, …, and before-first-apply) and the
// engine's own.
func (r *Engine) isClientSideManager(m string) bool {
	return m == r.opts.FieldOwner || m == "before-first-apply" || m == "kubectl" || strings.HasPrefix(m, "kubectl-")
}
