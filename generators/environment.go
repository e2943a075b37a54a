package generators

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DefaultParametersPath is where a component keeps its parameters when
// Environment.ParametersPath is empty.
const DefaultParametersPath = "spec"

// Environment is what a generator may know about the pass it renders for.
// Every field is optional; the zero value renders as a first install with
// no cluster access.
type Environment struct {
	// ReconcilerName is the name of the reconciler that applies the objects:
	// the object engine reads annotations named
	// "<ReconcilerName>/<suffix>". Generators that write such annotations
	// (the Helm generator for hooks) fail without it.
	ReconcilerName string
	// ComponentDigest is the digest of the component's effective input
	// (spec, annotations and referenced data).
	ComponentDigest string
	// Revision counts the distinct desired states the component has had: 1
	// for the first set of objects applied, then one more per change. Zero
	// counts as 1. The Helm generator takes it as the release revision and
	// renders an install for revision 1 and an upgrade after it.
	Revision int64
	// Client reads the cluster the objects are applied to; template lookups
	// go through it. Nil makes every lookup find nothing, as an offline
	// Helm rendering does.
	Client client.Reader
	// LocalClient reads the cluster the component lives in, for lookups of
	// its own objects. Nil means Client.
	LocalClient client.Reader
	// Discovery tells the target cluster's version and API versions. Pass a
	// cached client (k8s.io/client-go/discovery/cached/memory): generators
	// ask it on every rendering. Nil means the generator's defaults.
	Discovery Discovery
	// ParametersPath is where the parameters sit in the component, as its
	// author writes it; errors about parameters name fields below it. Empty
	// means DefaultParametersPath.
	ParametersPath string
	// Component is the component being rendered, for generators and
	// transformers that read its metadata. Read only; may be nil.
	Component client.Object
	// OnWarning receives each Warning of the rendering (see Warn), from
	// the goroutine that called Generate. Nil means warnings are only
	// logged.
	OnWarning func(Warning)
}

// Discovery is the part of a discovery client generators use;
// k8s.io/client-go/discovery.DiscoveryInterface implements it.
type Discovery interface {
	ServerVersion() (*version.Info, error)
	ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error)
}

type environmentKey struct{}

// WithEnvironment returns a copy of ctx carrying env.
func WithEnvironment(ctx context.Context, env Environment) context.Context {
	return context.WithValue(ctx, environmentKey{}, env)
}

// EnvironmentFrom returns the Environment ctx carries, or the zero
// Environment.
func EnvironmentFrom(ctx context.Context) Environment {
	env, _ := ctx.Value(environmentKey{}).(Environment)
	return env
}

// EffectiveRevision returns Revision, at least 1.
func (e Environment) EffectiveRevision() int64 {
	return max(e.Revision, 1)
}

// IsInstall reports whether the rendering is for the component's first
// desired state (revision 1).
func (e Environment) IsInstall() bool {
	return e.EffectiveRevision() == 1
}

// EffectiveParametersPath returns ParametersPath, or DefaultParametersPath
// when it is empty.
func (e Environment) EffectiveParametersPath() string {
	if e.ParametersPath == "" {
		return DefaultParametersPath
	}
	return e.ParametersPath
}

// EffectiveLocalClient returns LocalClient, or Client when it is nil.
func (e Environment) EffectiveLocalClient() client.Reader {
	if e.LocalClient == nil {
		return e.Client
	}
	return e.LocalClient
}
