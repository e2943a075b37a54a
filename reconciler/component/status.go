package component

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// writeStatus writes the component's status when the pass changed it
// (LastObservedAt then records the pass), and nothing otherwise: a pass
// that found everything as it was costs no write, and the component's
// watch does not see the reconciler's own echo.
//
// On a conflict it reads the component through the uncached reader: when
// only its metadata or spec moved on (the status is still what this pass
// started from), the write is retried on the fresh resourceVersion;
// otherwise someone else wrote the status, and the pass is retried
// instead (a retriable error), so nothing computed from a stale status is
// written. A component deleted meanwhile is not an error.
func (r *Reconciler[T]) writeStatus(ctx context.Context, p *pass[T]) error {
	orig := p.orig.GetStatus()
	if equality.Semantic.DeepEqual(orig, p.status) {
		return nil
	}
	now := metav1.NewTime(p.now)
	p.status.LastObservedAt = &now
	for attempt := 0; ; attempt++ {
		before := p.comp.GetResourceVersion()
		err := r.client.Status().Update(ctx, p.comp, client.FieldOwner(r.opts.FieldOwner))
		switch {
		case err == nil:
			r.fresh.wrote(p.key, p.comp.GetUID(), before)
			return nil
		case apierrors.IsNotFound(err):
			return nil
		case !apierrors.IsConflict(err) || attempt >= 2:
			return fmt.Errorf("writing the status: %w", apierr.Classify(err))
		}
		fresh, _ := newObject[T]()
		if err := r.apiReader.Get(ctx, client.ObjectKeyFromObject(p.comp), fresh); err != nil {
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("re-reading after a status conflict: %w", apierr.Classify(err))
		}
		if !equality.Semantic.DeepEqual(fresh.GetStatus(), orig) {
			return failure.Retriable(fmt.Errorf("the status was written by someone else during the pass"), 0)
		}
		p.comp.SetResourceVersion(fresh.GetResourceVersion())
	}
}
