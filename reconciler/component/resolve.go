package component

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
)

// ReferenceError says a reference of the component's spec names a
// ConfigMap, Secret or key that does not exist, or could not be read.
// A missing object is failure.ErrRequeue (it may be created yet; its
// creation triggers a pass), blamed on the component's author at the
// reference's name or key; a failed read keeps the API server's class.
type ReferenceError struct {
	// Field is the reference's absolute path, such as "spec.credentials".
	Field string
	// Kind is "ConfigMap" or "Secret".
	Kind string
	// Namespace and Name name the object.
	Namespace, Name string
	// Key is the missing key, empty when the object is missing or the
	// reference is to the whole object.
	Key string
	// Err is the read's error; nil when the object or key is missing.
	Err error
}

// Error says what is missing, or what failed, and where it is referenced.
func (e *ReferenceError) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("%s: %v", e.Field, e.Err)
	case e.Key != "":
		return fmt.Sprintf("%s: %s %s/%s has no key %q", e.Field, e.Kind, e.Namespace, e.Name, e.Key)
	default:
		return fmt.Sprintf("%s: %s %s/%s does not exist", e.Field, e.Kind, e.Namespace, e.Name)
	}
}

// Unwrap returns Err.
func (e *ReferenceError) Unwrap() error { return e.Err }

// Is reports failure.ErrRequeue for a missing object or key.
func (e *ReferenceError) Is(target error) bool { return e.Err == nil && target == failure.ErrRequeue }

// Blame returns failure.AuthorUser.
func (e *ReferenceError) Blame() failure.Author { return failure.AuthorUser }

// FieldPath returns the path of the reference's name, or of its key when
// the key is missing.
func (e *ReferenceError) FieldPath() string {
	if e.Key != "" {
		return e.Field + ".key"
	}
	return e.Field + ".name"
}

// RetryDelay returns zero: the reconciler's backoff decides, and the
// object's creation triggers a pass anyway.
func (e *ReferenceError) RetryDelay() time.Duration { return 0 }

var (
	_ failure.Blamer  = (*ReferenceError)(nil)
	_ failure.Fielder = (*ReferenceError)(nil)
	_ failure.Delayer = (*ReferenceError)(nil)
)

// resolved is a component's effective input.
type resolved struct {
	parameters map[string]any
	digest     string
}

// resolve loads every reference of the component's spec and returns the
// generator's parameters (the spec, with the references' data added) and
// the component digest. While deleting, references whose policy allows
// it load as empty when missing.
func (r *Reconciler[T]) resolve(ctx context.Context, comp T, deleting bool) (resolved, error) {
	spec := comp.GetSpec()
	found, commit, err := findReferences(spec, "spec")
	if err != nil {
		return resolved{}, failure.Invalid(failure.AuthorOperator, "T", "%v", err)
	}
	ns := referenceNamespace(comp)
	var errs, custom []error
	var customDigests []string
	for _, f := range found {
		if f.custom != nil {
			if err := f.custom.Load(ctx, r.apiReader, ns); err != nil {
				custom = append(custom, fmt.Errorf("%s: %w", f.field, err))
				continue
			}
			customDigests = append(customDigests, f.field+"="+f.custom.Digest())
			continue
		}
		obj := f.ref.Referenced()
		data, exists, err := r.deps.Load(ctx, refs.Key{Kind: obj.Kind, Namespace: ns, Name: obj.Name})
		if err != nil {
			errs = append(errs, &ReferenceError{Field: f.field, Kind: obj.Kind, Namespace: ns, Name: obj.Name, Err: err})
			continue
		}
		f.ref.Load(data, exists)
		if f.ref.Found() || f.policy == NotFoundIgnore || (deleting && f.policy == NotFoundIgnoreOnDeletion) {
			continue
		}
		re := &ReferenceError{Field: f.field, Kind: obj.Kind, Namespace: ns, Name: obj.Name}
		if exists {
			re.Key = obj.Key
		}
		errs = append(errs, re)
	}
	if err := errors.Join(append(errs, custom...)...); err != nil {
		return resolved{}, err
	}
	commit()
	params, err := runtime.DefaultUnstructuredConverter.ToUnstructured(spec)
	if err != nil {
		return resolved{}, failure.Invalid(failure.AuthorOperator, "T", "the spec does not convert to parameters: %v", err)
	}
	inject(params, found)
	digest, err := componentDigest(r.digestAnnotations(comp), params, customDigests, generators.FingerprintOf(r.generator))
	if err != nil {
		return resolved{}, err
	}
	return resolved{parameters: params, digest: digest}, nil
}

// referenceNamespace is where a component's references live: its own
// namespace, or, for a cluster-scoped component, its target namespace.
func referenceNamespace(c Component) string {
	if ns := c.GetNamespace(); ns != "" {
		return ns
	}
	if p, ok := configuration[PlacementConfiguration](c); ok {
		return p.GetTargetNamespace()
	}
	return ""
}
