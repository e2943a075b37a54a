// Package failure defines the four classes of error every opkit module
// reports, so a caller tells them apart with errors.Is and never with a list
// of module types:
//
//   - ErrInvalid: the input is wrong. Retrying with the same input fails the
//     same way, so fail what the input touches, say so where its author
//     looks, and wait for the input to change.
//   - ErrRequeue: something is not ready yet. Not a fault: wait for the
//     delay it carries and look again.
//   - ErrRateLimited: the API server answered 429. Back off for the
//     Retry-After it carries; never report the cluster degraded for it.
//   - ErrRetriable: a transient failure. Try again after the delay it
//     carries, or with the usual backoff when it carries none.
//
// Modules keep rich error types with fields of their own; each reports its
// class through an Is method, as controller-runtime's terminal error does:
//
//	func (e *MyError) Is(target error) bool { return target == failure.ErrInvalid }
//
// An invalid-input error also says whose mistake it is (Author): the author
// of the cluster resource, who gets a condition and a Warning event naming
// the field they wrote, or the author of the operator, whose code or
// options are wrong and who needs a startup or programming error. Its field
// path is absolute, as the user wrote it, for example
// "spec.roles.server.roleGroups.default.config.affinity".
//
// A caller that handles a pass's error decides with ClassOf, Delay,
// AuthorOf and FieldOf:
//
//	switch failure.ClassOf(err) {
//	case failure.ClassRateLimited:
//		return ctrl.Result{RequeueAfter: failure.Delay(err)}, nil
//	case failure.ClassInvalid:
//		// condition + Warning event naming failure.FieldOf(err)
//	}
//
// ClassOf keeps the most urgent class, which is what a condition reports.
// When to run the pass again depends on every failure of the tree: a role
// group waiting on a foreign object must not hold back the retry of a
// server error in another group. RetryOf reads that:
//
//	switch rt := failure.RetryOf(err); {
//	case rt.Backoff:
//		return ctrl.Result{}, err // controller-runtime's backoff
//	case rt.Wait:
//		return ctrl.Result{RequeueAfter: max(rt.After, time.Second)}, nil
//	}
//	return ctrl.Result{}, nil // invalid input only: wait for a change
//
// The package uses the standard library only; package apierr classifies the
// Kubernetes API server's errors into these classes.
package failure
