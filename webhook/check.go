package webhook

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/configfold"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/sidecar"
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

// checkRole checks every group of role. Without a declaration (the catalog
// could not be had) only the user's layers are folded.
func (w *Webhook[CR]) checkRole(ctx context.Context, c *collector, cr CR, role string, decl reconciler.RoleDeclaration, declared bool) {
	spec := cr.GetClusterSpec()
	rs := spec.Roles[role]
	image, imageErr := imageresolve.Resolve(w.opts.Reconciler.Image, imageresolve.Layers{RoleName: role, Declaration: decl.Image, Cluster: spec.Image})
	c.add(imageErr, "")
	for _, group := range slices.Sorted(maps.Keys(rs.RoleGroups)) {
		gs := rs.RoleGroups[group]
		common, foldErr := configfold.FoldCommon(configfold.Layers[commonsv1alpha1.RoleGroupConfigSpec]{
			RoleName: role, RoleGroupName: group,
			Declaration: decl.ConfigDefaults, Role: rs.Config, RoleGroup: gs.Config,
		})
		c.add(foldErr, "")
		merged, mergeErr := configfold.MergeOverrides(configfold.Layers[commonsv1alpha1.OverridesSpec]{
			RoleName: role, RoleGroupName: group, Role: &rs.OverridesSpec, RoleGroup: &gs.OverridesSpec,
		})
		c.add(mergeErr, "")
		for _, ig := range merged.IgnoredPodOverrides {
			for _, e := range ig.Errors {
				c.add(e, "")
			}
		}
		if !declared || foldErr != nil || mergeErr != nil || imageErr != nil || len(merged.IgnoredPodOverrides) > 0 {
			continue // the build would fail on what is already reported
		}
		bc, err := w.buildContext(cr, role, group, decl, common, merged, image)
		if err != nil {
			c.add(err, fmt.Sprintf("role group %s/%s is not built at admission", role, group))
			continue
		}
		if _, err := w.handler.BuildRoleGroup(ctx, cr, bc); err != nil {
			c.add(err, fmt.Sprintf("role group %s/%s", role, group))
		}
	}
}

// buildContext settles a role group's build context as a pass would,
// without what only a pass can read: the log agent (its aggregator is a
// ConfigMap read at reconcile time) and the rendered logging files.
func (w *Webhook[CR]) buildContext(cr CR, role, group string, decl reconciler.RoleDeclaration,
	common configfold.Common, merged configfold.MergedOverrides, image imageresolve.Resolved) (*reconciler.BuildContext, error) {
	cfg := &w.opts.Reconciler
	spec := cr.GetClusterSpec()
	kind := kindOf(cr)
	scope := builders.Scope{
		Namespace: cr.GetNamespace(), Cluster: cr.GetName(), Role: role, RoleGroup: group,
		ProductName: cfg.Image.ProductName, ProductVersion: image.ProductVersion,
		ManagedBy: cfg.ManagedBy, ClusterLabels: maps.Clone(cr.GetLabels()),
	}
	rs := spec.Roles[role]
	gs := rs.RoleGroups[group]
	bc := &reconciler.BuildContext{
		Cluster:     reconciler.ClusterRef{Kind: kind, Namespace: cr.GetNamespace(), Name: cr.GetName(), UID: cr.GetUID()},
		ClusterSpec: *spec.DeepCopy(), Role: role, RoleGroup: group,
		RoleSpec: *rs.DeepCopy(), RoleGroupSpec: *gs.DeepCopy(),
		Declaration: decl, Scope: scope,
		ServiceAccountName: builders.ServiceAccountName(kind, cr.GetName()),
		Replicas:           replicas(spec, gs),
		Config:             common, Overrides: merged, Image: image,
		Logging: reconciler.LoggingFiles{Files: map[string]string{}},
	}
	if cfg.Sidecars != nil {
		plan, err := cfg.Sidecars.Plan(sidecar.PlanOptions{
			ProductImage: sidecar.ProductImage{Reference: image.Reference, PullPolicy: image.PullPolicy},
			Disabled:     decl.DisabledSidecars,
		})
		if err != nil {
			return nil, err
		}
		bc.Sidecars = plan
	}
	return bc, nil
}

// replicas is the group's replica count as a pass computes it.
func replicas(spec *commonsv1alpha1.ClusterSpec, gs commonsv1alpha1.RoleGroupSpec) int32 {
	switch {
	case spec.ClusterOperation != nil && spec.ClusterOperation.Stopped:
		return 0
	case gs.Replicas == nil:
		return 1
	default:
		return *gs.Replicas
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
