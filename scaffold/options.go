package scaffold

import "runtime/debug"

// Type is the kind of operator a project holds.
type Type string

const (
	// Product is an operator of role groups: opkit's product reconciler
	// turns each resource into a StatefulSet, Services, a ConfigMap and a
	// PodDisruptionBudget per role group. The project starts with one role.
	Product Type = "product"
	// Component is an operator driven by a generator: opkit's component
	// reconciler renders objects from each resource's spec (Go templates
	// here) and applies them.
	Component Type = "component"
)

// DefaultVersion is the API version of a project whose Options leave
// Version empty.
const DefaultVersion = "v1alpha1"

// Options describe the project to generate. Each field but BuildInfo is a
// flag of the opkit-scaffold command, named beside it; errors name the
// flag.
type Options struct {
	// Type is the operator's type (--type). Required.
	Type Type
	// Name is the project's name (--name), such as "zookeeper-operator":
	// the binary, the image and the prefix of every object config/default
	// deploys. Required.
	Name string
	// Module is the project's Go module path (--module), such as
	// "example.com/zookeeper-operator". Required.
	Module string
	// Group is the API group of the resource (--group), such as
	// "zookeeper.example.com". It also names the reconciler (its field
	// manager and annotation prefix). Required.
	Group string
	// Version is the API version of the resource (--version). Empty means
	// DefaultVersion.
	Version string
	// Kind is the resource's kind (--kind), such as "ZookeeperCluster".
	// Required.
	Kind string
	// Dir is the directory the project is written to (--dir); it must be
	// absent or empty. Empty means Name, in the working directory.
	Dir string
	// OpkitPath is a checkout of opkit (--opkit-path): the project's go.mod
	// replaces every opkit module it needs, directly or through another,
	// with that checkout's directory of it.
	OpkitPath string
	// OpkitVersion is the release of opkit the project requires
	// (--opkit-version), such as "v0.3.0". With neither OpkitPath nor
	// OpkitVersion, it is the scaffold's own release, when the scaffold
	// was built from one.
	OpkitVersion string
	// NoRun writes the files only (--no-run): no go mod tidy, no
	// controller-gen, no RBAC generation and no build. The project then
	// lacks go.sum, its deep copies, its CRD and its roles until
	// `go mod tidy && make manifests` runs.
	NoRun bool
	// BuildInfo is the scaffold's own build, whose module version is the
	// default of OpkitVersion. Nil means the running binary's
	// (debug.ReadBuildInfo).
	BuildInfo *debug.BuildInfo
}

// version returns the API version, defaulted.
func (o Options) version() string {
	if o.Version == "" {
		return DefaultVersion
	}
	return o.Version
}

// dir returns the target directory, defaulted.
func (o Options) dir() string {
	if o.Dir == "" {
		return o.Name
	}
	return o.Dir
}
