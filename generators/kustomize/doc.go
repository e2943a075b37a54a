// Package kustomize renders a kustomization through kustomize's own engine
// (sigs.k8s.io/kustomize/api/krusty), after rendering every file of the
// tree as a Go template with package templates:
//
//	//go:embed deploy
//	var deploy embed.FS
//
//	g, err := kustomize.New(deploy, "deploy", kustomize.Options{})
//	objects, err := g.Generate(ctx, "shop", "web", map[string]any{"image": "nginx:1.27"})
//
// The tree comes from an fs.FS (embedded or os.DirFS) and is copied, once
// rendered, into an in-memory file system, so kustomize reads nothing else:
// paths outside the tree are refused and remote bases are not supported.
// Kustomize plugins (including Helm chart inflation) are off: a
// kustomization listing helmCharts is refused, by New when the tree holds
// it and by Generate when it appears once rendered, before the chart's
// templates are taken for the tree's own. Render a chart with module
// github.com/opkit-dev/opkit/generators/helm and join both generators with
// generators.Concat. When the
// tree's root has no kustomization file, one is generated that lists every
// manifest (.yaml, .yml, .json) of the tree, and every subdirectory that
// has a kustomization of its own instead of its files.
//
// The objects come in the order kubectl kustomize prints them: kustomize's
// legacy order (Namespaces and CRDs first, then by kind, webhooks last)
// unless the kustomization's sortOptions choose another ("fifo" keeps the
// order of its resources).
//
// Template functions, helpers ("_*" files, never copied to kustomize),
// delimiters and the ignore file are those of package templates.
package kustomize
