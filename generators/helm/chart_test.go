package helm_test

import (
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

// copyTree copies the tree at dir of fsys into a MapFS, leaving out the
// paths in without.
func copyTree(t *testing.T, fsys fs.FS, dir string, without ...string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	sub, err := fs.Sub(fsys, dir)
	require.NoError(t, err)
	require.NoError(t, fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, w := range without {
			if p == w {
				return nil
			}
		}
		data, err := fs.ReadFile(sub, p)
		out[p] = &fstest.MapFile{Data: data}
		return err
	}))
	return out
}

func TestHelmignore(t *testing.T) {
	// The chart's .helmignore hides an editor leftover that does not parse.
	without := copyTree(t, os.DirFS("testdata"), "webshop", ".helmignore")
	g, err := helm.New(without, ".", helm.Options{})
	require.NoError(t, err)
	_, err = g.Generate(generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler}), "ns", "rel", nil)
	require.ErrorContains(t, err, "configmap.yaml.orig")

	_, err = newWebshop(t).Generate(generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler}), "ns", "rel", nil)
	require.NoError(t, err)
}

func TestNewRefusesChartsItCannotRender(t *testing.T) {
	webshop := os.DirFS("testdata")
	tests := []struct {
		name    string
		fsys    fs.FS
		dir     string
		field   string
		message string
	}{
		{"missing dependency", copyTree(t, webshop, "webshop", "charts/cache/Chart.yaml", "charts/cache/values.yaml", "charts/cache/templates/configmap.yaml"),
			".", "Chart.yaml", "dependencies not vendored into charts/: webshop/charts/cache"},
		{"library chart", webshop, "webshop/charts/common", "Chart.yaml", "is a library chart"},
		{"no Chart.yaml", fstest.MapFS{"templates/a.yaml": {}}, ".", "dir", "Chart.yaml file is missing"},
		{"no such directory", webshop, "nothing", "dir", "nothing"},
		{"absolute directory", webshop, "/webshop", "dir", "not a valid fs.FS path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := helm.New(tt.fsys, tt.dir, helm.Options{})
			if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorOperator, tt.field},
				[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
			require.ErrorContains(t, err, tt.message)
		})
	}
}

func TestTemplateFailureBlamesTheComponentAuthor(t *testing.T) {
	chart := fstest.MapFS{
		"Chart.yaml":        {Data: []byte("apiVersion: v2\nname: strict\nversion: 0.1.0\n")},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required \"name is required\" .Values.name }}\n")},
	}
	g, err := helm.New(chart, ".", helm.Options{})
	require.NoError(t, err)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ParametersPath: "spec.chart.values"})
	_, err = g.Generate(ctx, "ns", "rel", nil)
	if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorUser, "spec.chart.values"},
		[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
		t.Errorf("error %v (-want +got):\n%s", err, diff)
	}
	require.ErrorContains(t, err, "name is required")
}
