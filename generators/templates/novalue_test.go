package templates_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

// TestMissingValuesPrintNothing: an action whose value is missing prints
// nothing, as in Helm, while the text around actions is kept as written,
// "<no value>" included (Helm deletes that text wherever it is).
func TestMissingValuesPrintNothing(t *testing.T) {
	params := map[string]any{"set": "x", "null": nil, "text": "<no value>", "tpl": "[{{ .Values.nothing }}]"}
	tests := []struct {
		name, text, want string
	}{
		{"missing key", "[{{ .Values.nothing }}]", "[]"},
		{"null value", "[{{ .Values.null }}]", "[]"},
		{"pipeline ending in a missing value", "[{{ .Values.set | empty | ternary .Values.nothing .Values.nothing }}]", "[]"},
		{"literal text", "[<no value>] [{{ .Values.set }}]", "[<no value>] [x]"},
		{"a value that is the text", "[{{ .Values.text }}]", "[<no value>]"},
		{"printf keeps Go's own rendering", `[{{ printf "%v" .Values.nothing }}]`, "[<nil>]"},
		{"variable", "{{ $v := .Values.nothing }}[{{ $v }}]", "[]"},
		{"inside if, range, with", "{{ if true }}[{{ .Values.nothing }}]{{ end }}{{ range (list 1) }}[{{ $.Values.nothing }}]{{ end }}{{ with .Values.set }}[{{ $.Values.nothing }}]{{ end }}", "[][][]"},
		{"helper through include", `{{ define "h" }}<no value>{{ .nothing }}{{ end }}[{{ include "h" .Values }}]`, "[<no value>]"},
		{"tpl", "{{ tpl .Values.tpl . }} {{ tpl \"<no value>\" . }}", "[] <no value>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.text, templates.Options{}, generators.Environment{}, params)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestConcurrentTpl: tpl rewrites the templates it parses while other
// renderings of the same tree run (go test -race).
func TestConcurrentTpl(t *testing.T) {
	src, err := templates.Load(fstest.MapFS{"t.txt": {Data: []byte(`{{ define "h" }}{{ .nothing }}{{ end }}{{ tpl .Values.tpl . }}`)}}, ".", templates.Options{})
	require.NoError(t, err)
	params := map[string]any{"tpl": `[{{ include "h" .Values }}{{ .Values.nothing }}]`}
	var wg sync.WaitGroup
	got := make([]string, 8)
	errs := make([]error, 8)
	for i := range got {
		wg.Go(func() {
			out, err := src.RenderFile(t.Context(), "ns", "n", params, "t.txt")
			got[i], errs[i] = string(out), err
		})
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	if diff := cmp.Diff(slices.Repeat([]string{"[]"}, 8), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
