package reconciler

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/configfold"
	"github.com/opkit-dev/opkit/imageresolve"
	"github.com/opkit-dev/opkit/sidecar"
)

// ClusterRef identifies the cluster resource a build is for.
type ClusterRef struct {
	// Kind is the resource's kind, as the scheme knows it.
	Kind string
	// Namespace and Name locate the resource; every object of the cluster
	// lives in Namespace.
	Namespace, Name string
	// UID is the resource's UID.
	UID types.UID
}

// BuildContext is everything the reconciler has settled for one role group
// before its objects are built: names, labels, the folded config, the
// merged overrides, the resolved image, the service account, the sidecars
// and the logging answer. A handler reads it; changing it changes nothing
// the reconciler already decided from it.
type BuildContext struct {
	// Cluster is the cluster resource.
	Cluster ClusterRef
	// ClusterSpec is the resource's common spec, a copy.
	ClusterSpec commonsv1alpha1.ClusterSpec
	// Role and RoleGroup name the group.
	Role, RoleGroup string
	// RoleSpec and RoleGroupSpec are the group's role and its own block as
	// the user wrote them.
	RoleSpec      commonsv1alpha1.RoleSpec
	RoleGroupSpec commonsv1alpha1.RoleGroupSpec
	// Declaration is the role's declaration from the product's catalog.
	Declaration RoleDeclaration
	// Scope names and labels the group's objects; Scope.ResourceName() is
	// the name of its ConfigMap, StatefulSet and client Service.
	Scope builders.Scope
	// ServiceAccountName is the ServiceAccount the pods run as, ensured by
	// the reconciler; never empty.
	ServiceAccountName string
	// Replicas is the group's replica count: its spec, or 0 while the
	// cluster is stopped.
	Replicas int32
	// Config is the role group config folded over the declaration's
	// defaults, the role and the group, with its affinity decoded.
	Config configfold.Common
	// Overrides are the group's overrides merged over its role's.
	Overrides configfold.MergedOverrides
	// Image is the resolved image of the product containers.
	Image imageresolve.Resolved
	// Sidecars are the sidecars the group's pods run; pass them to the
	// StatefulSet builder with WithInjectors.
	Sidecars *sidecar.Plan
	// Logging holds the logging config files of the role's log producers,
	// rendered from the folded config.logging, to be put into the group's
	// ConfigMap; and whether they write log files for an agent to collect.
	Logging LoggingFiles
	// Client reads what a handler needs besides the build context (an S3
	// bucket, a Secret's keys): the manager's client, which serves a kind
	// from its cache (starting an informer on the first read of a kind it
	// does not cache yet). It is nil where no pass runs, as in the
	// admission checks that resolve a role group without building it.
	Client client.Reader
}

// LoggingFiles are the rendered logging config files of a role group.
type LoggingFiles struct {
	// Files maps a config file name to its content.
	Files map[string]string
	// CollectFiles says the producers write log files the Vector agent
	// ships; without the agent they log to the console only.
	CollectFiles bool
}

// ResourceName returns the name of the group's ConfigMap, StatefulSet and
// client Service.
func (bc *BuildContext) ResourceName() string { return bc.Scope.ResourceName() }

// PodTarget returns the target sidecars inject into.
func (bc *BuildContext) PodTarget() builders.PodTarget {
	return builders.PodTarget{Scope: bc.Scope, MainContainer: bc.Declaration.mainContainerName(bc.Role)}
}

// ConfigFile returns the config file name with the product's entries and
// the user's configOverrides of that file, role first, then role group, so
// the builder blames each entry on the layer that wrote it.
func (bc *BuildContext) ConfigFile(name string, entries map[string]string) builders.ConfigFile {
	f := builders.ConfigFile{Name: name, Entries: maps.Clone(entries)}
	if o := bc.RoleSpec.ConfigOverrides[name]; o != nil {
		f.Overrides = append(f.Overrides, builders.ConfigOverride{Layer: commonsv1alpha1.LayerRole, Entries: maps.Clone(o)})
	}
	if o := bc.RoleGroupSpec.ConfigOverrides[name]; o != nil {
		f.Overrides = append(f.Overrides, builders.ConfigOverride{Layer: commonsv1alpha1.LayerRoleGroup, Entries: maps.Clone(o)})
	}
	return f
}

// OverriddenFiles returns the names of the files the user's
// configOverrides address, sorted.
func (bc *BuildContext) OverriddenFiles() []string {
	names := map[string]bool{}
	for n := range bc.RoleSpec.ConfigOverrides {
		names[n] = true
	}
	for n := range bc.RoleGroupSpec.ConfigOverrides {
		names[n] = true
	}
	return slices.Sorted(maps.Keys(names))
}

// PodOverrides returns the group's decoded pod-override layers, lowest
// first, for the StatefulSet builder.
func (bc *BuildContext) PodOverrides() []builders.PodOverride {
	out := make([]builders.PodOverride, 0, len(bc.Overrides.PodOverrides))
	for _, l := range bc.Overrides.PodOverrides {
		out = append(out, builders.PodOverride{Layer: l.Layer, Patch: l.Patch})
	}
	return out
}
