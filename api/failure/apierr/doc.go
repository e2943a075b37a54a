// Package apierr sorts the Kubernetes API server's errors into the classes
// of package failure, keeping the original error in the chain so that
// apierrors.IsNotFound and its friends still answer:
//
//	if err := c.Update(ctx, obj); err != nil {
//		return apierr.Classify(err) // a 429 now satisfies errors.Is(err, failure.ErrRateLimited)
//	}
package apierr
