package kustomize_test

import (
	"context"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/kustomize"
)

// render runs New and Generate, returning the first error.
func render(ctx context.Context, fsys fs.FS, dir string, parameters map[string]any) error {
	g, err := kustomize.New(fsys, dir, kustomize.Options{})
	if err != nil {
		return err
	}
	_, err = g.Generate(ctx, "shop", "web", parameters)
	return err
}

// chart is a local chart whose template the template pass cannot render:
// it reads .Release and uses a function of Helm's only.
var chart = fstest.MapFS{
	"charts/greeting/Chart.yaml":               {Data: []byte("apiVersion: v2\nname: greeting\nversion: 0.1.0\n")},
	"charts/greeting/templates/configmap.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: '{{ .Release.Name }}'}\ndata: {token: {{ randAlphaNum 8 }}}\n")},
}

func withChart(kustomization string) fstest.MapFS {
	tree := fstest.MapFS{"kustomization.yaml": {Data: []byte(kustomization)}}
	for p, f := range chart {
		tree[p] = f
	}
	return tree
}

// TestHelmChartsAreRefused: kustomize inflates the charts of helmCharts
// only when Helm is enabled (kubectl kustomize --enable-helm) and refuses
// the kustomization otherwise; this generator never enables it, and says
// so before its template pass meets the chart's templates, naming the
// field and the kustomization, as the operator's author's mistake.
func TestHelmChartsAreRefused(t *testing.T) {
	tests := []struct {
		name       string
		fsys       fs.FS
		dir        string
		parameters map[string]any
		field      string
		// reference runs kubectl kustomize on the tree too.
		reference bool
	}{
		{"local chart", os.DirFS("testdata/conformance"), "helm-chart", nil, "helmCharts", true},
		{"templated kustomization", withChart("namePrefix: {{ .Name }}-\nhelmCharts:\n- name: greeting\n"), ".", nil, "helmCharts", false},
		{"deprecated field", withChart("helmChartInflationGenerator:\n- chartName: greeting\n"), ".", nil, "helmChartInflationGenerator", false},
		{"field set by the parameters", fstest.MapFS{"kustomization.yaml": {Data: []byte("{{ toYaml .Values }}\n")}}, ".",
			map[string]any{"helmCharts": []any{map[string]any{"name": "greeting", "repo": "https://charts.example.com"}}}, "helmCharts", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.reference {
				_, err := kubectlKustomize(t, tt.fsys, tt.dir)
				require.ErrorContains(t, err, "--enable-helm")
			}
			err := render(t.Context(), tt.fsys, tt.dir, tt.parameters)
			var te *generators.TemplateError
			require.ErrorAs(t, err, &te)
			if diff := cmp.Diff([]any{"kustomization.yaml", failure.ClassInvalid, failure.AuthorOperator},
				[]any{te.Template, failure.ClassOf(err), failure.AuthorOf(err)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
			require.ErrorContains(t, err, "kustomization.yaml")
			require.ErrorContains(t, err, tt.field+" is not supported")
		})
	}
}
