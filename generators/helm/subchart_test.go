package helm_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"sync"
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

// tgz packs files as a chart archive.
func tgz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range files {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(data))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestArchivedSubchartAliasAndFunctions(t *testing.T) {
	chart := fstest.MapFS{
		"Chart.yaml": {Data: []byte(`apiVersion: v2
name: parent
version: 0.1.0
dependencies:
- name: queue
  version: 0.2.0
  alias: jobs
`)},
		"values.yaml": {Data: []byte("jobs:\n  workers: 5\n")},
		"charts/queue-0.2.0.tgz": {Data: tgz(t, map[string]string{
			"queue/Chart.yaml":           "apiVersion: v2\nname: queue\nversion: 0.2.0\n",
			"queue/values.yaml":          "workers: 1\n",
			"queue/templates/queue.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-{{ .Chart.Name }}\ndata:\n  workers: {{ .Values.workers | quote }}\n",
		})},
		"templates/cm.yaml": {Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}
data:
  digest: {{ componentDigest | quote }}
  reconciler: {{ reconcilerName | quote }}
  local: {{ len (localLookup "v1" "Secret" "ns" "x") | quote }}
  custom: {{ shout "hi" | quote }}
`)},
	}
	g, err := helm.New(chart, ".", helm.Options{Funcs: template.FuncMap{"shout": func(s string) string { return s + "!" }}})
	require.NoError(t, err)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler, ComponentDigest: "d1"})

	objects, err := g.Generate(ctx, "ns", "rel", nil)
	require.NoError(t, err)

	got := map[string]any{
		"parent": find(objects, "ConfigMap", "rel").Object["data"],
		// The alias names the subchart and its values.
		"queue": find(objects, "ConfigMap", "rel-jobs").Object["data"],
	}
	want := map[string]any{
		"parent": map[string]any{"digest": "d1", "reconciler": reconciler, "local": "0", "custom": "hi!"},
		"queue":  map[string]any{"workers": "5"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestConcurrentRenderings(t *testing.T) {
	g := newWebshop(t)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler})
	var wg sync.WaitGroup
	errs := make([]error, 6)
	caches := make([]bool, 6)
	for i := range errs {
		wg.Go(func() {
			// Every other rendering disables the subchart.
			objects, err := g.Generate(ctx, "ns", "rel", map[string]any{"cache": map[string]any{"enabled": i%2 == 0}})
			errs[i] = err
			caches[i] = find(objects, "ConfigMap", "rel-cache") != nil
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	if diff := cmp.Diff([]bool{true, false, true, false, true, false}, caches); diff != "" {
		t.Errorf("subchart rendered (-want +got):\n%s", diff)
	}
}
