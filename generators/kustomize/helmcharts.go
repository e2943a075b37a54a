package kustomize

import (
	"bytes"
	"fmt"
	"path"
	"slices"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/yaml"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

// helmFields are the kustomization fields that inflate Helm charts, which
// this generator leaves off: the current one first, then its deprecated
// form.
var helmFields = []string{"helmCharts", "helmChartInflationGenerator"}

// refuseHelmCharts fails for the first kustomization file of files that
// inflates a Helm chart, naming the file and the field. It runs on the
// tree as read, before its files are parsed as templates (a chart's
// templates are Helm's, not this generator's, and would fail there with a
// misleading error), and again on the rendered files, for a kustomization
// that only gets the field once rendered.
func refuseHelmCharts(files []templates.File) error {
	for _, f := range files {
		if !slices.Contains(konfig.RecognizedKustomizationFileNames(), path.Base(f.Path)) {
			continue
		}
		if field := helmChartsField(f.Data); field != "" {
			return &generators.TemplateError{Template: f.Path, Author: failure.AuthorOperator,
				Err: fmt.Errorf("%s is not supported: the kustomize generator does not inflate Helm charts; "+
					"render the chart with the generator of module github.com/opkit-dev/opkit/generators/helm "+
					"and join both generators with generators.Concat", field)}
		}
	}
	return nil
}

// helmChartsField returns the field of helmFields that the kustomization
// data sets to a non-empty list, or "". Data that is not YAML (a template
// before rendering) declares a field when one of its lines starts with
// the field's key.
func helmChartsField(data []byte) string {
	var k map[string]any
	if err := yaml.Unmarshal(data, &k); err == nil {
		for _, f := range helmFields {
			if l, ok := k[f].([]any); ok && len(l) > 0 {
				return f
			}
		}
		return ""
	}
	for line := range bytes.Lines(data) {
		for _, f := range helmFields {
			if rest, ok := bytes.CutPrefix(line, []byte(f)); ok && bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte(":")) {
				return f
			}
		}
	}
	return ""
}
