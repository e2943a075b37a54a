package templates_test

import (
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/templates"
)

// render renders one template text with the parameters in env.
func render(t *testing.T, text string, opts templates.Options, env generators.Environment, params map[string]any) (string, error) {
	t.Helper()
	src, err := templates.Load(fstest.MapFS{"t.txt": {Data: []byte(text)}}, ".", opts)
	if err != nil {
		return "", err
	}
	out, err := src.RenderFile(generators.WithEnvironment(t.Context(), env), "ns", "name", params, "t.txt")
	return string(out), err
}

func TestFunctions(t *testing.T) {
	env := generators.Environment{ReconcilerName: "r.example.com", ComponentDigest: "abc", Revision: 2, Discovery: discovery}
	params := map[string]any{"list": []any{"a", "b"}, "m": map[string]any{"k": "v"}, "tpl": "{{ .Name }}!"}
	tests := []struct {
		name, text, want string
	}{
		{"values, namespace, name, template", "{{ .Values.m.k }} {{ .Namespace }} {{ .Name }} {{ .Template.Name }}", "v ns name t.txt"},
		{"missing value renders as nothing", "[{{ .Values.nothing }}]", "[]"},
		{"toYaml", "{{ toYaml .Values.m }}", "k: v"},
		{"fromYaml", `{{ (fromYaml "a: 1").a }}`, "1"},
		{"fromYamlArray", `{{ index (fromYamlArray "[x, z]") 1 }}`, "z"},
		{"fromJson", `{{ (fromJson "{\"a\": \"b\"}").a }}`, "b"},
		{"fromJsonArray", `{{ len (fromJsonArray "[1, 2, 3]") }}`, "3"},
		{"toJson from sprig", "{{ toJson .Values.list }}", `["a","b"]`},
		{"sprig strings", `{{ "web" | upper | quote }}`, `"WEB"`},
		{"include", `{{ define "x" }}<{{ . }}>{{ end }}{{ include "x" "y" | upper }}`, "<Y>"},
		{"tpl", "{{ tpl .Values.tpl . }}", "name!"},
		{"componentDigest", "{{ componentDigest }}", "abc"},
		{"componentRevision", "{{ componentRevision }}", "2"},
		{"isInstall", "{{ isInstall }}", "false"},
		{"reconcilerName", "{{ reconcilerName }}/apply-order", "r.example.com/apply-order"},
		{"kubernetesVersion", "{{ kubernetesVersion.GitVersion }} {{ kubernetesVersion.Minor }}", "v1.37.2 37"},
		{"apiVersions", `{{ has "policy/v1/PodDisruptionBudget" apiVersions }} {{ has "batch/v1" apiVersions }}`, "true false"},
		{"lookup without a client finds nothing", `{{ len (lookup "v1" "Secret" "ns" "x") }}`, "0"},
		{"localLookup without a client finds nothing", `{{ len (localLookup "v1" "Secret" "ns" "") }}`, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.text, templates.Options{}, env, params)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRevisionZeroIsAnInstall(t *testing.T) {
	got, err := render(t, "{{ componentRevision }} {{ isInstall }}", templates.Options{}, generators.Environment{}, nil)
	require.NoError(t, err)
	require.Equal(t, "1 true", got)
}

func TestNondeterministicFunctionsAreAbsent(t *testing.T) {
	for _, fn := range []string{"now", "randAlphaNum", "randInt", "uuidv4", "genPrivateKey", "htpasswd", "env", "ago"} {
		t.Run(fn, func(t *testing.T) {
			_, err := render(t, "{{ "+fn+" }}", templates.Options{}, generators.Environment{}, nil)
			require.ErrorContains(t, err, `function "`+fn+`" not defined`)
		})
	}
}

func TestDelimitersAndCustomFunctions(t *testing.T) {
	opts := templates.Options{
		LeftDelim: "[[", RightDelim: "]]",
		Funcs: template.FuncMap{
			"shout":  func(s string) string { return s + "!" },
			"upper":  func(string) string { return "replaced" },
			"lookup": func(...string) string { return "own lookup" },
		},
	}
	got, err := render(t, `expr: {{ $labels.pod }} [[ shout .Name ]] [[ upper "x" ]] [[ lookup "v1" "Secret" "" "" ]]`, opts, generators.Environment{}, nil)
	require.NoError(t, err)
	require.Equal(t, "expr: {{ $labels.pod }} name! replaced own lookup", got)
}

func TestDiscoveryMissingIsTheOperatorsMistake(t *testing.T) {
	_, err := render(t, "{{ kubernetesVersion }}", templates.Options{}, generators.Environment{}, nil)
	var ce *generators.ConfigError
	require.ErrorAs(t, err, &ce)
	if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorOperator, "Environment.Discovery"},
		[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
		t.Errorf("error %v (-want +got):\n%s", err, diff)
	}
}
