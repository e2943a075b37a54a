package helm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/version"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
)

func newWebshop(t *testing.T) *helm.Generator {
	t.Helper()
	g, err := helm.New(os.DirFS("testdata"), "webshop", helm.Options{})
	require.NoError(t, err)
	return g
}

func TestInstall(t *testing.T) {
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{
		ReconcilerName: reconciler, Revision: 1, Discovery: cluster,
	})
	objects, err := newWebshop(t).Generate(ctx, "shop", "front", map[string]any{"replicaCount": 2})
	require.NoError(t, err)

	want := []string{
		"CustomResourceDefinition/widgets.shop.example.com",
		"ConfigMap/front-cache",
		"ConfigMap/front-webshop",
		"Secret/front-credentials delete-policy=orphan",
		"Deployment/front-webshop",
		"Job/front-migrate apply-order=-16389 purge-order=-16389 reconcile-policy=on-object-or-component-change update-policy=recreate",
		"ConfigMap/front-welcome apply-order=16384 reconcile-policy=once update-policy=recreate",
	}
	if diff := cmp.Diff(want, summary(objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

func TestRenderedContent(t *testing.T) {
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{
		ReconcilerName: reconciler, Revision: 3, Discovery: cluster,
	})
	params := map[string]any{"config": map[string]any{"server": map[string]any{"port": 9090}}, "replicaCount": 2}
	objects, err := newWebshop(t).Generate(ctx, "shop", "front", params)
	require.NoError(t, err)

	cm := find(objects, "ConfigMap", "front-webshop")
	require.NotNil(t, cm)
	replicas, _, err := unstructured.NestedInt64(find(objects, "Deployment", "front-webshop").Object, "spec", "replicas")
	require.NoError(t, err)
	got := map[string]any{
		"config":   cm.Object["data"],
		"labels":   cm.GetLabels(),
		"cache":    find(objects, "ConfigMap", "front-cache").Object["data"],
		"password": find(objects, "Secret", "front-credentials").Object["stringData"],
		"replicas": replicas,
	}
	want := map[string]any{
		"config": map[string]any{
			// toToml, with the parameter merged over values.yaml.
			"config.toml": "[features]\n  checkout = true\n\n[server]\n  host = \"0.0.0.0\"\n  port = 9090\n",
			// .Release from the component revision.
			"release": "front shop 3 install=false upgrade=true",
			// .Capabilities from discovery.
			"kubernetes": "v1.37.2",
			"pdb":        "true",
			"image":      "registry.example.com/webshop:2.4.0",
		},
		// The library subchart's helper; .Release.Service is the reconciler.
		"labels": map[string]string{"app.kubernetes.io/instance": "front", "app.kubernetes.io/managed-by": reconciler, "app.kubernetes.io/name": "webshop"},
		// The subchart sees its own values, the parent's override first.
		"cache": map[string]any{"size": "64", "parent": "false"},
		// lookup without a client finds nothing.
		"password": map[string]any{"password": "front-initial"},
		"replicas": int64(2),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"config": map[string]any{"server": map[string]any{"port": 9090}}, "replicaCount": 2}, params); diff != "" {
		t.Errorf("parameters changed (-want +got):\n%s", diff)
	}
}

func TestUpgrade(t *testing.T) {
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler, Revision: 2})
	objects, err := newWebshop(t).Generate(ctx, "shop", "front", nil)
	require.NoError(t, err)

	want := []string{
		"CustomResourceDefinition/widgets.shop.example.com",
		"ConfigMap/front-cache",
		"ConfigMap/front-webshop",
		"Secret/front-credentials delete-policy=orphan",
		"Deployment/front-webshop",
		// Install and upgrade hook: runs again when the component changes.
		"Job/front-migrate apply-order=-16389 purge-order=-16389 reconcile-policy=on-object-or-component-change update-policy=recreate",
		// Install-only hook: stays, never written again.
		"ConfigMap/front-welcome apply-order=16384 reconcile-policy=once update-policy=recreate",
		// Upgrade-only hook: from the first upgrade on, after the other objects.
		"ConfigMap/front-upgraded apply-order=16387 purge-order=16387 reconcile-policy=on-object-or-component-change",
	}
	if diff := cmp.Diff(want, summary(objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

func TestConditionDisablesSubchart(t *testing.T) {
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler})
	g := newWebshop(t)
	objects, err := g.Generate(ctx, "shop", "front", map[string]any{"cache": map[string]any{"enabled": false}})
	require.NoError(t, err)
	require.Nil(t, find(objects, "ConfigMap", "front-cache"))

	// The generator keeps no state: the next rendering has the cache again.
	objects, err = g.Generate(ctx, "shop", "front", nil)
	require.NoError(t, err)
	require.NotNil(t, find(objects, "ConfigMap", "front-cache"))
}

func TestSkipCRDs(t *testing.T) {
	g, err := helm.New(os.DirFS("testdata"), "webshop", helm.Options{SkipCRDs: true})
	require.NoError(t, err)
	objects, err := g.Generate(generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler}), "shop", "front", nil)
	require.NoError(t, err)
	require.Nil(t, find(objects, "CustomResourceDefinition", "widgets.shop.example.com"))
	require.NotNil(t, find(objects, "Deployment", "front-webshop"))
}

func TestKubeVersionConstraint(t *testing.T) {
	old := cluster
	old.version = version.Info{Major: "1", Minor: "19", GitVersion: "v1.19.3"}
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler, Discovery: old})
	_, err := newWebshop(t).Generate(ctx, "shop", "front", nil)
	var te *generators.TemplateError
	require.ErrorAs(t, err, &te)
	require.Equal(t, failure.AuthorOperator, te.Author)
	require.ErrorContains(t, err, "needs Kubernetes >=1.20.0-0, the cluster runs v1.19.3")
}

func TestValuesRefusedByTheSchemaBlameTheComponentAuthor(t *testing.T) {
	ctx := generators.WithEnvironment(t.Context(), generators.Environment{ReconcilerName: reconciler, ParametersPath: "spec.values"})
	_, err := newWebshop(t).Generate(ctx, "shop", "front", map[string]any{"replicaCount": 0})
	if diff := cmp.Diff([]any{failure.ClassInvalid, failure.AuthorUser, "spec.values"},
		[]any{failure.ClassOf(err), failure.AuthorOf(err), failure.FieldOf(err)}); diff != "" {
		t.Errorf("error %v (-want +got):\n%s", err, diff)
	}
	require.ErrorContains(t, err, "replicaCount")
}

// The fingerprint follows the chart's files: the same chart gives the same
// one, a changed file another.
func TestFingerprintFollowsTheChart(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/webshop")); err != nil {
		t.Fatal(err)
	}
	a, err := helm.New(os.DirFS(dir), ".", helm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := helm.New(os.DirFS(dir), ".", helm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("the same chart gave two fingerprints")
	}
	if err := os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("changed: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := helm.New(os.DirFS(dir), ".", helm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Fingerprint() == a.Fingerprint() {
		t.Error("a changed values.yaml kept the fingerprint")
	}
}
