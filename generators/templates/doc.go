// Package templates renders trees of Go templates (text/template) read from
// an fs.FS: embedded files or a directory on disk. Generator turns the
// manifests of a tree into objects; Source is the rendering step the
// kustomize generator shares; ParameterTransformer maps parameters through
// one template.
//
//	//go:embed manifests
//	var manifests embed.FS
//
//	g, err := templates.New(manifests, "manifests", templates.Options{})
//	objects, err := g.Generate(ctx, "shop", "web", map[string]any{"replicas": 3})
//
// Every file of the tree is a template named by its path; files whose
// name starts with "_" hold shared definitions (define) for include and
// produce no output. The ignore file at the root (".generatorignore",
// .dockerignore syntax) leaves files out. A template sees .Values (the
// parameters), .Namespace and .Name (the component's), and .Template.Name.
// An action whose value is missing prints nothing, as in Helm; unlike
// Helm, which deletes the text "<no value>" from its whole output
// afterwards, the text of a file is kept as written, that text included.
//
// Functions: sprig's (github.com/Masterminds/sprig/v3) except those whose
// output changes between renderings (the clock, random values, keys and
// salts), so that an unchanged component renders the same bytes and the
// object engine writes nothing; toYaml, fromYaml, fromYamlArray,
// fromJson, fromJsonArray, required, include and tpl as in Helm; and the
// functions of the Environment in the context:
//
//	componentDigest        Environment.ComponentDigest
//	componentRevision      Environment.EffectiveRevision()
//	isInstall              true for revision 1
//	reconcilerName         the annotation prefix: {{ reconcilerName }}/apply-order
//	kubernetesVersion      the target cluster's version.Info (.GitVersion, .Major, .Minor)
//	apiVersions            the target's "group/version" and "group/version/Kind", sorted
//	lookup                 apiVersion kind namespace name: an object of the target
//	                       cluster as a map, a list with name "", empty if absent
//	localLookup            the same in the component's own cluster
package templates
