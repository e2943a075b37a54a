package servertest_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/kustomize"
	"github.com/opkit-dev/opkit/generators/templates"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// lookupTree renders what lookups find in the component's namespace.
var lookupTree = fstest.MapFS{"report.yaml": {Data: []byte(`
{{- $secret := lookup "v1" "Secret" .Namespace "db" }}
{{- $maps := lookup "v1" "ConfigMap" .Namespace "" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: report
data:
  password: {{ $secret.data.password | b64dec | quote }}
  maps: "{{ range $maps.items }}{{ .metadata.name }},{{ end }}"
  missing: {{ len (lookup "v1" "Secret" .Namespace "nothing") | quote }}
  unserved: {{ len (lookup "example.com/v1" "Gadget" .Namespace "g") | quote }}
  local: {{ (localLookup "v1" "ConfigMap" .Namespace "b").data.k | quote }}
  version: {{ kubernetesVersion.GitVersion | quote }}
  apps: {{ has "apps/v1/StatefulSet" apiVersions | quote }}
`)}}

func seed(t *testing.T, ns string) {
	t.Helper()
	c := env.Require(t).Client
	require.NoError(t, c.Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"},
		StringData: map[string]string{"password": "s3cret"}}))
	for _, n := range []string{"b", "a"} {
		require.NoError(t, c.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: n},
			Data: map[string]string{"k": "v-" + n}}))
	}
}

func realEnvironment(t *testing.T) generators.Environment {
	t.Helper()
	cp := env.Require(t)
	dc, err := discovery.NewDiscoveryClientForConfig(cp.Config)
	require.NoError(t, err)
	return generators.Environment{ReconcilerName: "shop.example.com", Client: cp.Client, Discovery: memory.NewMemCacheClient(dc)}
}

func TestTemplateLookupsAndDiscovery(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	seed(t, ns)
	g, err := templates.New(lookupTree, ".", templates.Options{})
	require.NoError(t, err)

	objects, err := g.Generate(generators.WithEnvironment(t.Context(), realEnvironment(t)), ns, "web", nil)
	require.NoError(t, err)

	require.Len(t, objects, 1)
	data := objects[0].(*unstructured.Unstructured).Object["data"].(map[string]any)
	version := data["version"].(string)
	require.True(t, strings.HasPrefix(version, "v1.37."), "server version %q", version)
	delete(data, "version")
	want := map[string]any{
		"password": "s3cret",
		"maps":     "a,b,",
		"missing":  "0",
		"unserved": "0",
		"local":    "v-b",
		"apps":     "true",
	}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestKustomizeLookup(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	seed(t, ns)
	tree := fstest.MapFS{
		"kustomization.yaml": {Data: []byte("resources: [cm.yaml]\nnamePrefix: {{ .Name }}-\n")},
		"cm.yaml": {Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata: {name: copy}
data: {k: {{ (lookup "v1" "ConfigMap" .Namespace "a").data.k }}}
`)},
	}
	g, err := kustomize.New(tree, ".", kustomize.Options{})
	require.NoError(t, err)
	objects, err := g.Generate(generators.WithEnvironment(t.Context(), realEnvironment(t)), ns, "web", nil)
	require.NoError(t, err)
	require.Len(t, objects, 1)
	require.Equal(t, "web-copy", objects[0].GetName())
	require.Equal(t, map[string]any{"k": "v-a"}, objects[0].(*unstructured.Unstructured).Object["data"])
}

func TestFailedLookupKeepsItsClass(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	seed(t, ns)
	tests := []struct {
		fault faults.Fault
		class failure.Class
	}{
		{faults.TooManyRequests, failure.ClassRateLimited},
		{faults.ServiceUnavailable, failure.ClassRetriable},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			inj, err := faults.New(faults.Options{Rules: []faults.Rule{{Verbs: []string{"get"}, Resources: []string{"secrets"}, Fault: tt.fault, Rate: 1}}})
			require.NoError(t, err)
			e := realEnvironment(t)
			e.Client = inj.Client(cp.Client)
			g, err := templates.New(lookupTree, ".", templates.Options{})
			require.NoError(t, err)

			_, err = g.Generate(generators.WithEnvironment(t.Context(), e), ns, "web", nil)

			require.Error(t, err)
			require.Equal(t, tt.class, failure.ClassOf(err), "error %v", err)
			var te *generators.TemplateError
			require.NotErrorAs(t, err, &te, "a failed API call is not a template error")
			require.ErrorContains(t, err, "template report.yaml: lookup v1 Secret "+ns+"/db")
		})
	}
}
