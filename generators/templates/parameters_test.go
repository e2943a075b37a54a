package templates_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

func TestParameterTransformer(t *testing.T) {
	tree := fstest.MapFS{
		"values/values.yaml": {Data: []byte(`
replicaCount: {{ .Values.size | default 1 }}
image:
  tag: {{ include "tag" . }}
fullnameOverride: {{ .Name }}
`)},
		"values/_tag.tpl": {Data: []byte(`{{ define "tag" }}{{ .Values.version | default "latest" }}{{ end }}`)},
	}
	p, err := templates.NewParameterTransformer(tree, "values/values.yaml", templates.Options{})
	require.NoError(t, err)

	got, err := p.TransformParameters(t.Context(), "shop", "web", map[string]any{"size": 3, "version": "1.2"})
	require.NoError(t, err)

	want := map[string]any{"replicaCount": float64(3), "image": map[string]any{"tag": 1.2}, "fullnameOverride": "web"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParameterTransformerFileMustExist(t *testing.T) {
	_, err := templates.NewParameterTransformer(fstest.MapFS{"v/a.yaml": {}}, "v/b.yaml", templates.Options{})
	var ce *generators.ConfigError
	require.ErrorAs(t, err, &ce)
}
