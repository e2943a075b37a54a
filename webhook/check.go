package webhook

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/opkit-dev/opkit/reconciler"
)

// Result is what the checks found in one cluster resource.
type Result struct {
	// Errors are the user's mistakes, sorted by field, each once.
	Errors field.ErrorList
	// Warnings are what admission reports without refusing: the operator's
	// own mistakes, declared roles the resource does not use, checks that
	// could not run. Sorted, each once.
	Warnings []string
}

// Check runs the reconciler's checks on cr, as a pass would see it, and
// the product's Validate: the role catalog, then per configured role group
// the config fold (affinity, graceful shutdown), the override merge (pod
// overrides that do not decode), the image and the product's handler
// building the group (pod overrides displacing framework mounts, config
// entries, resources). It reads nothing itself; the product's role
// provider and handler may.
func (w *Webhook[CR]) Check(ctx context.Context, cr CR) Result {
	var c collector
	spec := cr.GetClusterSpec()
	catalog, err := w.roles.DeclareRoles(ctx, cr)
	if err != nil {
		c.add(err, "the product's roles could not be declared, so the roles are not checked at admission")
		catalog = nil
	} else {
		unused, err := reconciler.ValidateCatalog(spec, catalog)
		c.add(err, "")
		for _, role := range unused {
			c.warn("the product declares role %q, which spec.roles does not configure", role)
		}
	}
	for _, role := range slices.Sorted(maps.Keys(spec.Roles)) {
		decl, declared := catalog[role]
		if catalog != nil && !declared {
			continue // reported by the catalog check
		}
		w.checkRole(ctx, &c, cr, role, decl, declared)
	}
	if w.opts.Validate != nil {
		c.errs = append(c.errs, w.opts.Validate(ctx, cr)...)
	}
	res := c.result()
	logr.FromContextOrDiscard(ctx).V(1).Info("admission checks", "errors", len(res.Errors), "warnings", len(res.Warnings))
	return res
}

// checkRole checks every group of role: the group's build context is
// settled exactly as a pass settles it (reconciler.Config.ResolveRoleGroup;
// only the log agent, whose aggregator is read at reconcile time, is left
// out), then the product's handler builds it. Without a declaration (the
// catalog could not be had) only the user's layers are folded.
func (w *Webhook[CR]) checkRole(ctx context.Context, c *collector, cr CR, role string, decl reconciler.RoleDeclaration, declared bool) {
	rs := cr.GetClusterSpec().Roles[role]
	for _, group := range slices.Sorted(maps.Keys(rs.RoleGroups)) {
		bc, warnings, err := w.opts.Reconciler.ResolveRoleGroup(cr, reconciler.RoleGroupTarget{
			Kind: kindOf(cr), Role: role, RoleGroup: group, Declaration: decl,
			LogAgent: reconciler.LogAgent{Unknown: true},
		})
		refused := err != nil
		c.add(err, "")
		for _, wn := range warnings {
			if wn.Err != nil {
				// A pass leaves an undecodable pod override out; admission
				// refuses it, naming the field.
				c.add(wn.Err, "")
				refused = true
				continue
			}
			c.warn("role group %s/%s: %s", role, group, wn.Message)
		}
		if !declared || refused {
			continue // the build would fail on what is already reported
		}
		if _, err := w.handler.BuildRoleGroup(ctx, cr, bc); err != nil {
			c.add(err, fmt.Sprintf("role group %s/%s", role, group))
		}
	}
}

// kindOf returns cr's kind: from its type metadata, which an admission
// request carries, else from its Go type's name.
func kindOf(cr reconciler.Cluster) string {
	if k := cr.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	t := reflect.TypeOf(cr)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}
