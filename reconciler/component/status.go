package component

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/reconciler/internal/status"
)

// writeStatus writes the component's status when the pass changed it
// (LastObservedAt then records the pass), and nothing otherwise: a pass
// that found everything as it was costs no write, and the component's
// watch does not see the reconciler's own echo. See status.Update for
// conflicts.
func (r *Reconciler[T]) writeStatus(ctx context.Context, p *pass[T]) error {
	orig := p.orig.GetStatus()
	if equality.Semantic.DeepEqual(orig, p.status) {
		return nil
	}
	now := metav1.NewTime(p.now)
	p.status.LastObservedAt = &now
	return status.Update(ctx, status.Target{Client: r.client, Reader: r.apiReader, Versions: &r.fresh, FieldOwner: r.opts.FieldOwner},
		p.comp, orig, func(o client.Object) any { return o.(T).GetStatus() })
}
