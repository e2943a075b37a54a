// Package generators defines what renders a component's objects: a
// Generator turns a component's namespace, name and parameters into
// Kubernetes objects, and transformers adapt the parameters before and the
// objects after it.
//
// A Generator learns about the pass it renders for from the Environment the
// caller puts into the context: the reconciler name (the prefix of the
// annotations the object engine reads), the component digest and
// revision, readers of the target and local clusters for lookups, and
// discovery for the cluster's version and API versions. The component
// reconciler fills it; a test or a CLI fills what it has:
//
//	ctx = generators.WithEnvironment(ctx, generators.Environment{
//		ReconcilerName: "shop.example.com",
//		Revision:       2,
//		Client:         c,
//		Discovery:      cachedDiscovery,
//	})
//	objects, err := g.Generate(ctx, "shop", "web", map[string]any{"replicas": 3})
//
// What a rendering leaves out without failing is a Warning, which
// Environment.Warn logs and hands to Environment.OnWarning; a reconciler
// collects them there and records Warning events.
//
// Transformers compose around any generator:
//
//	g = generators.Transform(g,
//		[]generators.ParameterTransformer{defaults},
//		[]generators.ObjectTransformer{labels})
//
// The generators shipped with opkit are in sub-packages: templates (Go
// templates over an fs.FS) and kustomize (Go templates, then kustomize); the
// Helm generator is the module github.com/opkit-dev/opkit/generators/helm,
// so that an operator using kustomize never downloads Helm.
//
// Errors follow github.com/opkit-dev/opkit/api/failure: a template or chart
// that cannot work is failure.ErrInvalid blamed on the operator's author,
// parameters a template refuses are failure.ErrInvalid blamed on the
// component's author at Environment.ParametersPath, and a failed lookup
// keeps the API server's class (rate-limited, retriable).
package generators
