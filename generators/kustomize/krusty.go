package kustomize

import "sigs.k8s.io/kustomize/api/krusty"

// kustomizeOptions returns the options `kubectl kustomize` and `kustomize
// build` run krusty with when given no flags. krusty.MakeDefaultOptions
// differs in one of them: it keeps the resources in the order the
// kustomizations list them, where the commands leave the order
// unspecified, which sorts the output in kustomize's legacy order
// (Namespaces and CRDs first, webhooks last) unless the kustomization's
// own sortOptions say otherwise. Plugins stay off, Helm chart inflation
// included, and files are loaded from below the kustomization's root only.
func kustomizeOptions() *krusty.Options {
	o := krusty.MakeDefaultOptions()
	o.Reorder = krusty.ReorderOptionUnspecified
	return o
}
