package servertest_test

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

func webshop(t *testing.T) *helm.Generator {
	t.Helper()
	g, err := helm.New(os.DirFS("../testdata"), "webshop", helm.Options{})
	require.NoError(t, err)
	return g
}

func environment(t *testing.T, c client.Reader) (generators.Environment, discovery.DiscoveryInterface) {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(env.Require(t).Config)
	require.NoError(t, err)
	return generators.Environment{ReconcilerName: "shop.example.com", Revision: 1, Client: c, Discovery: memory.NewMemCacheClient(dc)}, dc
}

func find(t *testing.T, objects []client.Object, kind, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objects {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name {
			return o.(*unstructured.Unstructured)
		}
	}
	t.Fatalf("no %s %s", kind, name)
	return nil
}

func TestLookupReusesTheLiveSecret(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	e, _ := environment(t, cp.Client)
	ctx := generators.WithEnvironment(t.Context(), e)
	g := webshop(t)

	objects, err := g.Generate(ctx, ns, "front", nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"password": "front-initial"}, find(t, objects, "Secret", "front-credentials").Object["stringData"])

	require.NoError(t, cp.Client.Create(t.Context(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "front-credentials"},
		StringData: map[string]string{"password": "chosen-by-an-admin"},
	}))
	objects, err = g.Generate(ctx, ns, "front", nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"password": "chosen-by-an-admin"}, find(t, objects, "Secret", "front-credentials").Object["stringData"])
}

func TestCapabilitiesFromTheServer(t *testing.T) {
	cp := env.Require(t)
	e, dc := environment(t, cp.Client)
	server, err := dc.ServerVersion()
	require.NoError(t, err)

	objects, err := webshop(t).Generate(generators.WithEnvironment(t.Context(), e), "default", "front", nil)
	require.NoError(t, err)

	data := find(t, objects, "ConfigMap", "front-webshop").Object["data"].(map[string]any)
	got := map[string]any{"kubernetes": data["kubernetes"], "pdb": data["pdb"]}
	want := map[string]any{"kubernetes": server.GitVersion, "pdb": "true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFailedLookupIsRetriable(t *testing.T) {
	cp := env.Require(t)
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{{Verbs: []string{"get"}, Resources: []string{"secrets"}, Fault: faults.InternalError, Rate: 1}}})
	require.NoError(t, err)
	e, _ := environment(t, inj.Client(cp.Client))

	_, err = webshop(t).Generate(generators.WithEnvironment(t.Context(), e), "default", "front", nil)

	require.Equal(t, failure.ClassRetriable, failure.ClassOf(err), "error %v", err)
	require.ErrorContains(t, err, "chart webshop: lookup v1 Secret default/front-credentials")
}
