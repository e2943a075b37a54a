package orphan

import (
	"context"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// deleteOnce deletes obj unless its deletion is already under way, with a
// UID precondition so a same-named replacement is never hit, and reports
// whether it issued the deletion. Dependents (a StatefulSet's pods) are
// left to the garbage collector.
func (c *Cleaner) deleteOnce(ctx context.Context, obj client.Object) (bool, error) {
	if obj.GetDeletionTimestamp() != nil {
		return false, nil
	}
	uid := obj.GetUID()
	err := c.client.Delete(ctx, obj,
		client.Preconditions{UID: &uid},
		client.PropagationPolicy(metav1.DeletePropagationBackground))
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("deleting %s %s: %w", c.kind(obj), obj.GetName(), apierr.Classify(err))
	}
	return true, nil
}

// kind returns obj's kind: from its type meta, else from the client's
// scheme, else its Go type's name, which for Kubernetes API types is the
// kind.
func (c *Cleaner) kind(obj client.Object) string {
	if gvk, err := apiutil.GVKForObject(obj, c.client.Scheme()); err == nil {
		return gvk.Kind
	}
	return reflect.TypeOf(obj).Elem().Name()
}

// reference returns a structured reference to obj.
func (c *Cleaner) reference(obj client.Object) corev1.ObjectReference {
	ref := corev1.ObjectReference{
		Kind:      c.kind(obj),
		Namespace: obj.GetNamespace(),
		Name:      obj.GetName(),
		UID:       obj.GetUID(),
	}
	if gvk, err := apiutil.GVKForObject(obj, c.client.Scheme()); err == nil {
		ref.APIVersion = gvk.GroupVersion().String()
	}
	return ref
}

func hasLabel(obj client.Object, key string) bool {
	_, ok := obj.GetLabels()[key]
	return ok
}
