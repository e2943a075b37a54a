package reconciler

import (
	"context"
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

// groupInput is what resolving one role group starts from.
type groupInput struct {
	cluster   ClusterRef
	spec      *commonsv1alpha1.ClusterSpec
	labels    map[string]string
	stopped   bool
	sa        string
	role      string
	roleSpec  commonsv1alpha1.RoleSpec
	group     string
	groupSpec commonsv1alpha1.RoleGroupSpec
	decl      RoleDeclaration
	// aggregator is the outcome of the cluster's Vector aggregator
	// discovery.
	aggregator aggregator
}

// resolve settles a role group's build context: fold the config, merge the
// overrides, resolve the image, decide the log agent, render the logging
// files and plan the sidecars. Every failure names the field; warnings
// (an affinity replaced, a pod override ignored, the agent skipped) are
// returned for the caller to record as events.
func (r *Reconciler[CR]) resolve(ctx context.Context, in groupInput) (*BuildContext, []warning, error) {
	var warnings []warning
	common, err := configfold.FoldCommon(configfold.Layers[commonsv1alpha1.RoleGroupConfigSpec]{
		RoleName: in.role, RoleGroupName: in.group,
		Declaration: in.decl.ConfigDefaults, Role: in.roleSpec.Config, RoleGroup: in.groupSpec.Config,
	})
	if err != nil {
		return nil, nil, err
	}
	if common.AffinityOverride != nil {
		warnings = append(warnings, warning{reason: ReasonAffinityOverridden, message: common.AffinityOverride.String()})
	}
	merged, err := configfold.MergeOverrides(configfold.Layers[commonsv1alpha1.OverridesSpec]{
		RoleName: in.role, RoleGroupName: in.group,
		Role: &in.roleSpec.OverridesSpec, RoleGroup: &in.groupSpec.OverridesSpec,
	})
	if err != nil {
		return nil, nil, err
	}
	for _, ig := range merged.IgnoredPodOverrides {
		warnings = append(warnings, warning{reason: ReasonPodOverrideIgnored, message: ig.String()})
	}
	image, err := imageresolve.Resolve(r.cfg.Image, imageresolve.Layers{RoleName: in.role, Declaration: in.decl.Image, Cluster: in.spec.Image})
	if err != nil {
		return nil, nil, err
	}

	scope := builders.Scope{
		Namespace: in.cluster.Namespace, Cluster: in.cluster.Name, Role: in.role, RoleGroup: in.group,
		ProductName: r.cfg.Image.ProductName, ProductVersion: image.ProductVersion,
		ManagedBy: r.cfg.ManagedBy, ClusterLabels: maps.Clone(in.labels),
	}
	bc := &BuildContext{
		Cluster: in.cluster, ClusterSpec: *in.spec.DeepCopy(), Role: in.role, RoleGroup: in.group,
		RoleSpec: *in.roleSpec.DeepCopy(), RoleGroupSpec: *in.groupSpec.DeepCopy(),
		Declaration: in.decl, Scope: scope, ServiceAccountName: in.sa,
		Replicas: replicasOf(in.groupSpec, in.stopped),
		Config:   common, Overrides: merged, Image: image,
	}

	agent, skipped, vectorConfig, err := r.decideVector(bc, in.aggregator)
	if err != nil {
		return nil, nil, err
	}
	if skipped != "" {
		warnings = append(warnings, warning{reason: ReasonVectorSidecarSkipped, message: skipped})
	}
	if bc.Logging, err = renderLogging(in, common.Config, agent != nil); err != nil {
		return nil, nil, err
	}
	if vectorConfig != "" {
		bc.Logging.Files[vector.ConfigFileName] = vectorConfig
	}
	plan := sidecar.PlanOptions{
		ProductImage: sidecar.ProductImage{Reference: image.Reference, PullPolicy: image.PullPolicy},
		Disabled:     in.decl.DisabledSidecars,
	}
	if agent != nil {
		plan.Extra = append(plan.Extra, agent)
	}
	if bc.Sidecars, err = r.sidecars.Plan(plan); err != nil {
		return nil, nil, fmt.Errorf("sidecars of role %q: %w", in.role, err)
	}
	return bc, warnings, ctx.Err()
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
func renderLogging(in groupInput, cfg *commonsv1alpha1.RoleGroupConfigSpec, collect bool) (LoggingFiles, error) {
	out := LoggingFiles{Files: map[string]string{}, CollectFiles: collect}
	if len(in.decl.LogProducers) == 0 {
		return out, nil
	}
	if err := productlogging.ValidateProducers(in.decl.LogProducers); err != nil {
		return out, err
	}
	var errs []error
	for _, p := range in.decl.LogProducers {
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
