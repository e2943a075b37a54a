package reconciler

import (
	"errors"
	"fmt"
	"maps"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/configfold"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/productlogging"
	"github.com/opkit-dev/opkit/sidecar"
	"github.com/opkit-dev/opkit/vector"
)

// RoleGroupTarget names the role group ResolveRoleGroup settles, with what
// a pass reads from the cluster rather than from the resource.
type RoleGroupTarget struct {
	// Kind is the cluster resource's kind; the ServiceAccount's name
	// derives from it.
	Kind string
	// Role and RoleGroup name the group in the resource's spec.
	Role, RoleGroup string
	// Declaration is the role's declaration from the product's catalog.
	Declaration RoleDeclaration
	// LogAgent is what the pass learned of the cluster's Vector aggregator.
	LogAgent LogAgent
}

// LogAgent is the outcome of the cluster's Vector aggregator discovery,
// read once per pass.
type LogAgent struct {
	// Address is the aggregator's host:port; Err the discovery's failure,
	// which fails the groups that run the agent with a rendered config.
	Address string
	Err     error
	// Unknown leaves the agent out whatever the spec asks, without a
	// warning: for a caller that cannot read the cluster (admission).
	Unknown bool
}

// Warning is something a user should see that fails nothing: an affinity
// member replaced, a pod override left out, the log agent skipped. Reason
// is one of the Reason constants; Err, when set, holds the errors behind
// it (the decode errors of a pod override left out, each naming its
// field), for a caller that refuses what a pass only warns about.
type Warning struct {
	Reason, Message string
	Err             error
}

// ResolveRoleGroup settles a role group's build context exactly as a pass
// does, from the resource alone: it folds the config, merges the
// overrides, resolves the image, decides the log agent, renders the
// logging files and plans the sidecars. Every failure of the user's input
// is returned, joined, each naming its field; what fails nothing comes
// back as warnings. The reconciler calls it for every group; an admission
// webhook calls it to refuse at admission what a pass would refuse.
func (c *Config[CR]) ResolveRoleGroup(cr CR, t RoleGroupTarget) (*BuildContext, []Warning, error) {
	bc, warnings, err := c.foldRoleGroup(cr, t)
	if err != nil {
		return nil, warnings, err
	}
	agent, skipped, vectorConfig, err := decideVector(bc, t.LogAgent)
	if err != nil {
		return nil, warnings, err
	}
	if skipped != "" {
		warnings = append(warnings, Warning{Reason: ReasonVectorSidecarSkipped, Message: skipped})
	}
	if bc.Logging, err = renderLogging(t.Declaration.LogProducers, bc.Config.Config, agent != nil); err != nil {
		return nil, warnings, err
	}
	if vectorConfig != "" {
		bc.Logging.Files[vector.ConfigFileName] = vectorConfig
	}
	if bc.Sidecars, err = c.planSidecars(t.Declaration, bc.Image, agent); err != nil {
		return nil, warnings, fmt.Errorf("sidecars of role %q: %w", t.Role, err)
	}
	return bc, warnings, nil
}

// foldRoleGroup folds the role group's config, overrides and image and
// returns the build context they make, with the warnings of the fold.
func (c *Config[CR]) foldRoleGroup(cr CR, t RoleGroupTarget) (*BuildContext, []Warning, error) {
	spec := cr.GetClusterSpec()
	rs := spec.Roles[t.Role]
	gs := rs.RoleGroups[t.RoleGroup]
	var warnings []Warning
	common, foldErr := configfold.FoldCommon(configfold.Layers[commonsv1alpha1.RoleGroupConfigSpec]{
		RoleName: t.Role, RoleGroupName: t.RoleGroup,
		Declaration: t.Declaration.ConfigDefaults, Role: rs.Config, RoleGroup: gs.Config,
	})
	if common.AffinityOverride != nil {
		warnings = append(warnings, Warning{Reason: ReasonAffinityOverridden, Message: common.AffinityOverride.String()})
	}
	merged, mergeErr := configfold.MergeOverrides(configfold.Layers[commonsv1alpha1.OverridesSpec]{
		RoleName: t.Role, RoleGroupName: t.RoleGroup,
		Role: &rs.OverridesSpec, RoleGroup: &gs.OverridesSpec,
	})
	for _, ig := range merged.IgnoredPodOverrides {
		var errs []error
		for _, e := range ig.Errors {
			errs = append(errs, e)
		}
		warnings = append(warnings, Warning{Reason: ReasonPodOverrideIgnored, Message: ig.String(), Err: errors.Join(errs...)})
	}
	image, imageErr := imageresolve.Resolve(c.Image, imageresolve.Layers{RoleName: t.Role, Declaration: t.Declaration.Image, Cluster: spec.Image})
	if err := errors.Join(foldErr, mergeErr, imageErr); err != nil {
		return nil, warnings, err
	}

	stopped := spec.ClusterOperation != nil && spec.ClusterOperation.Stopped
	bc := &BuildContext{
		Cluster:     ClusterRef{Kind: t.Kind, Namespace: cr.GetNamespace(), Name: cr.GetName(), UID: cr.GetUID()},
		ClusterSpec: *spec.DeepCopy(), Role: t.Role, RoleGroup: t.RoleGroup,
		RoleSpec: *rs.DeepCopy(), RoleGroupSpec: *gs.DeepCopy(),
		Declaration: t.Declaration,
		Scope: builders.Scope{
			Namespace: cr.GetNamespace(), Cluster: cr.GetName(), Role: t.Role, RoleGroup: t.RoleGroup,
			ProductName: c.Image.ProductName, ProductVersion: image.ProductVersion,
			ManagedBy: c.ManagedBy, ClusterLabels: maps.Clone(cr.GetLabels()),
		},
		ServiceAccountName: builders.ServiceAccountName(t.Kind, cr.GetName()),
		Replicas:           replicasOf(gs, stopped),
		Config:             common, Overrides: merged, Image: image,
	}
	return bc, warnings, nil
}

// planSidecars derives the group's sidecar plan from the registry, the
// log agent added when it runs.
func (c *Config[CR]) planSidecars(decl RoleDeclaration, image imageresolve.Resolved, agent sidecar.Provider) (*sidecar.Plan, error) {
	registry := c.Sidecars
	if registry == nil {
		var err error
		if registry, err = sidecar.NewRegistry(); err != nil {
			return nil, err
		}
	}
	opts := sidecar.PlanOptions{
		ProductImage: sidecar.ProductImage{Reference: image.Reference, PullPolicy: image.PullPolicy},
		Disabled:     decl.DisabledSidecars,
	}
	if agent != nil {
		opts.Extra = append(opts.Extra, agent)
	}
	return registry.Plan(opts)
}

// replicasOf returns the group's replicas: 1 when unset, 0 when stopped.
func replicasOf(gs commonsv1alpha1.RoleGroupSpec, stopped bool) int32 {
	switch {
	case stopped:
		return 0
	case gs.Replicas == nil:
		return 1
	default:
		return *gs.Replicas
	}
}

// renderLogging renders each declared log producer's config file from the
// folded config.logging.
func renderLogging(producers []productlogging.Producer, cfg *commonsv1alpha1.RoleGroupConfigSpec, collect bool) (LoggingFiles, error) {
	out := LoggingFiles{Files: map[string]string{}, CollectFiles: collect}
	if len(producers) == 0 {
		return out, nil
	}
	if err := productlogging.ValidateProducers(producers); err != nil {
		return out, err
	}
	var errs []error
	for _, p := range producers {
		var spec *commonsv1alpha1.ContainerLoggingSpec
		if cfg != nil && cfg.Logging != nil {
			if s, ok := cfg.Logging.Containers[p.Container]; ok {
				spec = &s
			}
		}
		content, err := productlogging.Render(p, spec, productlogging.Options{CollectFiles: collect})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.Files[p.ConfigFileName()] = content
	}
	return out, errors.Join(errs...)
}
