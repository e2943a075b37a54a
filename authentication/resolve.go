package authentication

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	authenticationv1alpha1 "github.com/opkit-dev/opkit/api/authentication/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/api/failure/apierr"
)

// DefaultNotFoundRetry is how soon a pass waiting for a class looks again.
const DefaultNotFoundRetry = 15 * time.Second

// ResolveOptions tunes Resolve. The zero value supports every provider.
type ResolveOptions struct {
	// Supported are the provider kinds the product implements; a class of
	// another kind is refused. Empty means all.
	Supported []authenticationv1alpha1.ProviderKind
	// NotFoundRetry is the delay of a *NotFoundError. Zero means
	// DefaultNotFoundRetry.
	NotFoundRetry time.Duration
}

// Class is a resolved reference: the class and the product's options.
type Class struct {
	// Name is the class's name.
	Name string
	// Provider is the class's provider, a copy.
	Provider authenticationv1alpha1.Provider
	// Reference is the product's reference, a copy.
	Reference authenticationv1alpha1.ClassReference
	// Field is where the reference was written, such as
	// "spec.authentication[0]".
	Field string
}

// Kind returns the class's provider kind.
func (c *Class) Kind() authenticationv1alpha1.ProviderKind { return c.Provider.Kind() }

// NotFoundError says a referenced AuthenticationClass does not exist
// (yet): the pass waits for it (class failure.ErrRequeue).
type NotFoundError struct {
	// Name is the missing class.
	Name string
	// Field is where the reference was written.
	Field string
	// After is when to look again.
	After time.Duration
	// Err is the API server's answer.
	Err error
}

// Error names the class and the field.
func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s: AuthenticationClass %s does not exist yet", e.Field, e.Name)
}

// Unwrap returns the API server's answer.
func (e *NotFoundError) Unwrap() error { return e.Err }

// Is reports failure.ErrRequeue.
func (e *NotFoundError) Is(target error) bool { return target == failure.ErrRequeue }

// RetryDelay returns After.
func (e *NotFoundError) RetryDelay() time.Duration { return e.After }

// FieldPath returns Field.
func (e *NotFoundError) FieldPath() string { return e.Field }

// Resolve reads the class of each reference through reader (the classes
// are cluster-scoped) and returns them in the references' order. field is
// the list's absolute path. Every problem of every reference is returned,
// joined: the user's mistakes as failure.ErrInvalid naming
// "<field>[<i>]…", missing classes as *NotFoundError, other read errors
// classified by apierr.Classify.
func Resolve(ctx context.Context, reader client.Reader, refs []authenticationv1alpha1.ClassReference, field string, opts ResolveOptions) ([]Class, error) {
	var errs []error
	out := make([]Class, 0, len(refs))
	seen := map[string]bool{}
	for i, ref := range refs {
		at := fmt.Sprintf("%s[%d]", field, i)
		if ref.AuthenticationClass == "" {
			errs = append(errs, failure.Invalid(failure.AuthorUser, at+".authenticationClass", "names no class"))
			continue
		}
		if seen[ref.AuthenticationClass] {
			errs = append(errs, failure.Invalid(failure.AuthorUser, at+".authenticationClass", "class %q is referred to twice", ref.AuthenticationClass))
			continue
		}
		seen[ref.AuthenticationClass] = true
		obj := &authenticationv1alpha1.AuthenticationClass{}
		err := reader.Get(ctx, client.ObjectKey{Name: ref.AuthenticationClass}, obj)
		switch {
		case apierrors.IsNotFound(err):
			after := opts.NotFoundRetry
			if after == 0 {
				after = DefaultNotFoundRetry
			}
			errs = append(errs, &NotFoundError{Name: ref.AuthenticationClass, Field: at + ".authenticationClass", After: after, Err: err})
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: reading AuthenticationClass %s: %w", at, ref.AuthenticationClass, apierr.Classify(err)))
			continue
		}
		c := Class{Name: obj.Name, Provider: *obj.Spec.Provider.DeepCopy(), Reference: *ref.DeepCopy(), Field: at}
		if err := check(c, opts); err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	if len(errs) > 0 {
		return nil, joinErrs(errs)
	}
	return out, nil
}

// check refuses a class the product cannot use as referred to.
func check(c Class, opts ResolveOptions) error {
	kind := c.Kind()
	switch {
	case kind == "":
		return failure.Invalid(failure.AuthorUser, c.Field+".authenticationClass", "class %q states no provider", c.Name)
	case len(opts.Supported) > 0 && !slices.Contains(opts.Supported, kind):
		names := make([]string, len(opts.Supported))
		for i, k := range opts.Supported {
			names[i] = string(k)
		}
		return failure.Invalid(failure.AuthorUser, c.Field+".authenticationClass",
			"class %q provides %s authentication; this product supports %s", c.Name, kind, strings.Join(names, ", "))
	case kind == authenticationv1alpha1.ProviderOIDC && c.Reference.OIDC == nil:
		return failure.Invalid(failure.AuthorUser, c.Field+".oidc", "class %q is an OIDC class: state the product's client (clientCredentialsSecret)", c.Name)
	}
	return nil
}
