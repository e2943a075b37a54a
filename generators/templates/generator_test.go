package templates_test

import (
	"errors"
	"os"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

var webParameters = map[string]any{
	"greeting": "hello",
	"port":     9090,
	"settings": map[string]any{"threads": 4, "mode": "fast"},
}

func TestGenerateTree(t *testing.T) {
	g, err := templates.New(os.DirFS("testdata"), "web", templates.Options{})
	require.NoError(t, err)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{
		ReconcilerName: "shop.example.com", Revision: 3, ComponentDigest: "d1g357",
	})

	objects, err := g.Generate(ctx, "shop", "web", webParameters)
	require.NoError(t, err)

	want := objectsYAML(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop-web
  annotations:
    shop.example.com/apply-order: "-1"
data:
  greeting: hello
  revision: "3"
  digest: d1g357
  install: "false"
  settings.yaml: |
    mode: fast
    threads: 4
`, `
apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop-web
spec:
  ports:
  - port: 9090
`)
	if diff := cmp.Diff(want, contents(objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

func TestGenerateDoesNotChangeParameters(t *testing.T) {
	tree := fstest.MapFS{"cm.yaml": {Data: []byte(`{{ $_ := set .Values "greeting" "changed" }}{{ $_ := unset .Values.settings "a" }}
apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Values.greeting }}}
`)}}
	g, err := templates.New(tree, ".", templates.Options{})
	require.NoError(t, err)
	params := map[string]any{"greeting": "hi", "settings": map[string]any{"a": 1}}
	objects, err := g.Generate(t.Context(), "ns", "n", params)
	require.NoError(t, err)
	require.Equal(t, "changed", objects[0].GetName(), "the template sees its own change")
	if diff := cmp.Diff(map[string]any{"greeting": "hi", "settings": map[string]any{"a": 1}}, params); diff != "" {
		t.Errorf("parameters changed (-want +got):\n%s", diff)
	}
}

func TestRequiredValueBlamesTheComponentAuthor(t *testing.T) {
	g, err := templates.New(os.DirFS("testdata"), "web", templates.Options{})
	require.NoError(t, err)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ParametersPath: "spec.values"})

	_, err = g.Generate(ctx, "shop", "web", map[string]any{})

	var te *generators.TemplateError
	require.ErrorAs(t, err, &te)
	got := []any{te.Template, failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}
	want := []any{"configmap.yaml", failure.ClassInvalid, failure.AuthorUser, "spec.values"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error %v (-want +got):\n%s", err, diff)
	}
	require.ErrorContains(t, err, "greeting is required")
}

func TestIgnoreFileLeavesFilesOut(t *testing.T) {
	tree := fstest.MapFS{}
	for _, p := range []string{"configmap.yaml", "_helpers.tpl", "skip/broken.yaml"} {
		data, err := os.ReadFile("testdata/web/" + p)
		require.NoError(t, err)
		tree[p] = &fstest.MapFile{Data: data}
	}

	// Without the ignore file the broken draft is part of the tree.
	_, err := templates.New(tree, ".", templates.Options{})
	var te *generators.TemplateError
	require.ErrorAs(t, err, &te)
	if diff := cmp.Diff([]any{"skip/broken.yaml", failure.AuthorOperator}, []any{te.Template, te.Author}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// A custom ignore file name is honoured.
	tree["ignore.txt"] = &fstest.MapFile{Data: []byte("skip/**\n")}
	_, err = templates.New(tree, ".", templates.Options{IgnoreFile: "ignore.txt"})
	require.NoError(t, err)
}

func TestBadDirIsTheOperatorsMistake(t *testing.T) {
	for _, dir := range []string{"/abs", "../up", "missing"} {
		t.Run(dir, func(t *testing.T) {
			_, err := templates.New(os.DirFS("testdata"), dir, templates.Options{})
			require.Error(t, err)
			if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorOperator, "dir"},
				[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
		})
	}
}

func TestConcurrentRenderings(t *testing.T) {
	g, err := templates.New(os.DirFS("testdata"), "web", templates.Options{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	names := make([]string, 8)
	for i := range errs {
		wg.Go(func() {
			name := string(rune('a' + i))
			objects, err := g.Generate(t.Context(), "ns", name, webParameters)
			errs[i] = err
			if err == nil {
				names[i] = objects[1].GetName()
			}
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e", "f", "g", "h"}, names); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}
