package kustomize

import (
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/generators/templates"
)

// kustomizationFile returns the path of the kustomization file in dir
// ("." for the root) among paths, or "".
func kustomizationFile(paths []string, dir string) string {
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		if p := path.Join(dir, n); slices.Contains(paths, p) {
			return p
		}
	}
	return ""
}

// generatedKustomization lists the resources of a tree without a root
// kustomization: its manifests, except that a directory with its own
// kustomization is listed instead of anything below it.
func generatedKustomization(paths []string) ([]byte, error) {
	var kustomized []string
	for _, p := range paths {
		if dir := path.Dir(p); dir != "." && kustomizationFile(paths, dir) == p {
			kustomized = append(kustomized, dir)
		}
	}
	below := func(p string) (string, bool) {
		for _, d := range kustomized {
			if strings.HasPrefix(p, d+"/") {
				return d, true
			}
		}
		return "", false
	}
	// Keep the outermost directories only: an inner one is its parent's.
	kustomized = slices.DeleteFunc(kustomized, func(d string) bool {
		_, inner := below(d)
		return inner
	})
	var resources []string
	for _, p := range paths {
		if d, ok := below(p); ok {
			if !slices.Contains(resources, d) {
				resources = append(resources, d)
			}
			continue
		}
		if templates.IsManifest(p) {
			resources = append(resources, p)
		}
	}
	slices.Sort(resources)
	return yaml.Marshal(map[string]any{
		"apiVersion": "kustomize.config.k8s.io/v1beta1",
		"kind":       "Kustomization",
		"resources":  resources,
	})
}
