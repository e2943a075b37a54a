package webhook

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/reconciler"
)

// Options configures the admission of one product kind. Reconciler is
// required; every other field's zero value is its documented default.
type Options[CR reconciler.Object[CR]] struct {
	// Reconciler is the product reconciler's configuration: For, Roles,
	// Handler, Image, ManagedBy and Sidecars are read, so admission runs the
	// code a pass runs. Required (For and Roles).
	Reconciler reconciler.Config[CR]

	// Roles, when set, declares the roles at admission instead of
	// Reconciler.Roles: for a product whose catalog reads other objects
	// the operator prefers not to read at admission. It must declare the
	// same roles.
	Roles reconciler.RoleProvider[CR]

	// Validate adds the product's own checks of its own fields; its errors
	// are refused with the framework's. Nil means none.
	Validate func(ctx context.Context, cr CR) field.ErrorList

	// Default sets defaults of the product's own fields. It must not change
	// the embedded common spec (see the package documentation); what it
	// changes there is undone. Nil means none.
	Default func(ctx context.Context, cr CR) error
}

// Webhook admits cluster resources of one product kind: it implements
// controller-runtime's admission.Validator[CR] and admission.Defaulter[CR].
// It keeps nothing per resource and serves every request concurrently.
type Webhook[CR reconciler.Object[CR]] struct {
	opts    Options[CR]
	roles   reconciler.RoleProvider[CR]
	handler reconciler.RoleGroupHandler[CR]
}

// New checks opts and returns the webhook. A missing For or Roles is a
// *failure.InvalidError naming the option.
func New[CR reconciler.Object[CR]](opts Options[CR]) (*Webhook[CR], error) {
	var errs []error
	if isNil(opts.Reconciler.For) {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "webhook.Options.Reconciler.For", "is required: an empty value of the cluster resource type"))
	}
	roles := opts.Roles
	if roles == nil {
		roles = opts.Reconciler.Roles
	}
	if roles == nil {
		errs = append(errs, failure.Invalid(failure.AuthorOperator, "webhook.Options.Reconciler.Roles", "is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	handler := opts.Reconciler.Handler
	if handler == nil {
		handler = &reconciler.DefaultHandler[CR]{}
	}
	return &Webhook[CR]{opts: opts, roles: roles, handler: handler}, nil
}

func isNil[T any](v T) bool {
	var zero T
	return any(v) == any(zero)
}
