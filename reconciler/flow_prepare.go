package reconciler

import (
	"context"
	"errors"
	"fmt"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler/internal/refs"
)

// MissingDependencyError reports a ConfigMap or Secret the cluster resource
// refers to that does not exist. It is the user's to fix
// (failure.ErrInvalid): nothing of the cluster is applied until it exists,
// and its creation reconciles the resource through the dependency watch.
type MissingDependencyError struct {
	Dependency
	// Namespace is where it was looked for: the resource's namespace.
	Namespace string
}

// Error names the field and the object.
func (e *MissingDependencyError) Error() string {
	return fmt.Sprintf("%s: %s %s/%s not found", e.Field, e.Kind, e.Namespace, e.Name)
}

// Is reports failure.ErrInvalid.
func (e *MissingDependencyError) Is(target error) bool { return target == failure.ErrInvalid }

// Blame returns failure.AuthorUser.
func (e *MissingDependencyError) Blame() failure.Author { return failure.AuthorUser }

// FieldPath returns the field that names the object.
func (e *MissingDependencyError) FieldPath() string { return e.Field }

// checkDependencies looks up every declared dependency and reports the
// missing ones, joined. Lookups go through the dependency cache (metadata
// only) once the manager runs it, and the API reader before.
func (r *Reconciler[CR]) checkDependencies(ctx context.Context, cr CR) error {
	if r.cfg.Dependencies == nil {
		return nil
	}
	var errs []error
	for _, d := range r.cfg.Dependencies(cr) {
		if d.Kind != "ConfigMap" && d.Kind != "Secret" {
			errs = append(errs, failure.Invalid(failure.AuthorOperator, "Dependency "+d.Name, "kind %q is neither ConfigMap nor Secret", d.Kind))
			continue
		}
		exists, err := refs.Exists(ctx, r.dependencyReader(), refs.Key{Kind: d.Kind, Namespace: cr.GetNamespace(), Name: d.Name})
		switch {
		case err != nil:
			errs = append(errs, err)
		case !exists:
			errs = append(errs, &MissingDependencyError{Dependency: d, Namespace: cr.GetNamespace()})
		}
	}
	return errors.Join(errs...)
}

// declareRoles asks the product for its catalog and checks the spec against
// it: a role the spec configures that the catalog lacks is the user's typo
// (its groups are skipped, the others reconciled); a declared role the spec
// does not use is a warning unless optional.
func (r *Reconciler[CR]) declareRoles(ctx context.Context, p *pass, cr CR) (Catalog, bool, error) {
	catalog, err := r.cfg.Roles.DeclareRoles(ctx, cr)
	if err != nil {
		return nil, false, fmt.Errorf("declaring roles: %w", err)
	}
	unused, err := ValidateCatalog(cr.GetClusterSpec(), catalog)
	for _, role := range unused {
		p.warn(ReasonUnusedRoleDeclaration, "the product declares role %q, which spec.roles does not configure", role)
	}
	if err != nil {
		p.warn(ReasonUnknownRole, "%s", message(err))
		p.fail("", err)
		return catalog, false, nil
	}
	return catalog, true, nil
}
