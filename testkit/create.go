package testkit

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CreateAndWait creates obj and waits until reader returns it, so a test
// that reads through a cache (a manager's client) never races its own
// create. obj is updated with what the server stored. reader may be c.
func CreateAndWait(ctx context.Context, c client.Client, reader client.Reader, obj client.Object, timeout time.Duration) error {
	if err := c.Create(ctx, obj); err != nil {
		return fmt.Errorf("creating %T %s/%s: %w", obj, obj.GetNamespace(), obj.GetName(), err)
	}
	key := client.ObjectKeyFromObject(obj)
	probe, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return fmt.Errorf("%T does not copy to a client.Object", obj)
	}
	_, err := WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		err := reader.Get(ctx, key, probe)
		if apierrors.IsNotFound(err) {
			return "not found", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return "found", true, nil
	}, timeout)
	if err != nil {
		return fmt.Errorf("waiting for %T %s to be readable: %w", obj, key, err)
	}
	return nil
}
