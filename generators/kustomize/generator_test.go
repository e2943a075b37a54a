package kustomize_test

import (
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/kustomize"
	"github.com/opkit-dev/opkit/generators/templates"
)

func names(objects []client.Object) []string {
	out := make([]string, len(objects))
	for i, o := range objects {
		out[i] = o.GetObjectKind().GroupVersionKind().Kind + "/" + o.GetName()
	}
	return out
}

func TestKustomizationWithPatchAndImageOverride(t *testing.T) {
	g, err := kustomize.New(os.DirFS("testdata"), "app", kustomize.Options{})
	require.NoError(t, err)
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{Revision: 4})

	objects, err := g.Generate(ctx, "shop", "web", map[string]any{
		"replicas": 3,
		"image":    map[string]any{"repository": "registry.example.com/nginx", "tag": "1.27"},
	})
	require.NoError(t, err)

	require.Len(t, objects, 3, names(objects))
	// kustomize's order: ConfigMaps before Services before Deployments.
	cm, deploy := objects[0].(*unstructured.Unstructured), objects[2].(*unstructured.Unstructured)
	cmName := cm.GetName()
	got := map[string]any{
		"names":      names(objects),
		"settings":   cm.Object["data"],
		"replicas":   deploy.Object["spec"].(map[string]any)["replicas"],
		"image":      containerField(t, deploy, "image"),
		"configMap":  containerField(t, deploy, "envFrom").([]any)[0].(map[string]any)["configMapRef"].(map[string]any)["name"],
		"instance":   deploy.GetLabels()["app.kubernetes.io/instance"],
		"nameSuffix": len(cmName) > len("web-settings-"),
	}
	want := map[string]any{
		"names":      []string{"ConfigMap/" + cmName, "Service/web-web", "Deployment/web-web"},
		"settings":   map[string]any{"revision": "4", "greeting": "hello"},
		"replicas":   int64(3),
		"image":      "registry.example.com/nginx:1.27",
		"configMap":  cmName,
		"instance":   "web",
		"nameSuffix": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func containerField(t *testing.T, u *unstructured.Unstructured, field string) any {
	t.Helper()
	cs, found, err := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	require.NoError(t, err)
	require.True(t, found)
	return cs[0].(map[string]any)[field]
}

func TestGeneratedKustomization(t *testing.T) {
	g, err := kustomize.New(os.DirFS("testdata"), "plain", kustomize.Options{})
	require.NoError(t, err)

	objects, err := g.Generate(t.Context(), "shop", "owner", nil)
	require.NoError(t, err)

	// kustomize's order: ServiceAccounts before ConfigMaps, then by name.
	want := []string{"ServiceAccount/b", "ConfigMap/a", "ConfigMap/extra-cm"}
	if diff := cmp.Diff(want, names(objects)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.Equal(t, "owner", objects[1].(*unstructured.Unstructured).Object["data"].(map[string]any)["owner"])
}

func TestKustomizeRefusalsBlameTheOperator(t *testing.T) {
	tests := []struct {
		name     string
		tree     fstest.MapFS
		template string
		message  string
	}{
		{"missing resource", fstest.MapFS{"kustomization.yaml": {Data: []byte("resources: [gone.yaml]\n")}},
			"kustomization.yaml", "gone.yaml"},
		{"outside the tree", fstest.MapFS{"app/kustomization.yaml": {Data: []byte("resources: [../secret.yaml]\n")},
			"secret.yaml": {Data: []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n")}},
			"kustomization.yaml", "secret.yaml"},
		{"generated, bad manifest", fstest.MapFS{"cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: [not, a, map]\n")}},
			"generated kustomization.yaml", "cm.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := "."
			if _, ok := tt.tree["app/kustomization.yaml"]; ok {
				dir = "app"
			}
			g, err := kustomize.New(tt.tree, dir, kustomize.Options{})
			require.NoError(t, err)
			_, err = g.Generate(t.Context(), "ns", "n", nil)
			var te *generators.TemplateError
			require.ErrorAs(t, err, &te)
			if diff := cmp.Diff([]any{tt.template, failure.ClassInvalid, failure.AuthorOperator},
				[]any{te.Template, failure.ClassOf(err), failure.AuthorOf(err)}); diff != "" {
				t.Errorf("error %v (-want +got):\n%s", err, diff)
			}
			require.ErrorContains(t, err, tt.message)
		})
	}
}

func TestIgnoreFileAndDelimiters(t *testing.T) {
	tree := fstest.MapFS{
		".generatorignore": {Data: []byte("drafts/\n")},
		"cm.yaml":          {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: <% .Name %>}\ndata: {rule: '{{ $value }}'}\n")},
		"drafts/wip.yaml":  {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wip}\n")},
	}
	g, err := kustomize.New(tree, ".", kustomize.Options{Template: templates.Options{LeftDelim: "<%", RightDelim: "%>"}})
	require.NoError(t, err)
	objects, err := g.Generate(t.Context(), "ns", "alerts", nil)
	require.NoError(t, err)
	if diff := cmp.Diff([]string{"ConfigMap/alerts"}, names(objects)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	require.Equal(t, map[string]any{"rule": "{{ $value }}"}, objects[0].(*unstructured.Unstructured).Object["data"])
}
