package servertest_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	samplev1alpha1 "github.com/opkit-dev/opkit/testkit/sample/v1alpha1"
)

// indexedClient returns a client reading from a started cache whose
// informers of the cleaner's kinds carry the index field.
func indexedClient(t *testing.T, field string) client.Client {
	t.Helper()
	cp := env.Require(t)
	c, err := cache.New(cp.RESTConfig(), cache.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	require.NoError(t, err)
	ctx := testkit.Context(t)
	require.NoError(t, orphan.Index(ctx, c, field,
		&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}, &policyv1.PodDisruptionBudget{}))
	go func() { _ = c.Start(ctx) }()
	require.True(t, c.WaitForCacheSync(ctx))
	cl, err := client.New(cp.RESTConfig(), client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper(),
		Cache: &client.CacheOptions{Reader: c}})
	require.NoError(t, err)
	return cl
}

// A cleaner told of the index finds a cluster's groups through it and
// retires a removed one, leaving another cluster's groups in the same
// namespace alone; an index the cache does not have is an error, not a
// silent scan of the namespace.
func TestIndexedCleanerRetiresOnlyItsClustersGroup(t *testing.T) {
	const field = "orphan.opkit.dev/cluster-test"
	f := newFixture(t, nil)
	f.applyGroup(kept, groupOptions{replicas: 1})
	f.applyGroup(retired, groupOptions{replicas: 1})
	other := &samplev1alpha1.SampleCluster{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "other"}}
	require.NoError(t, f.c.Create(t.Context(), other))
	g := &fixture{t: t, c: f.c, ns: f.ns, cluster: other}
	g.applyGroup(retired, groupOptions{replicas: 1})

	cached := indexedClient(t, field)
	cleaner, err := orphan.NewCleaner(cached, f.c, orphan.Options{Index: field, Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	in := orphan.Input{Owner: f.cluster, Declared: []v1alpha1.RoleGroupRef{kept}, Ledger: ledgerOf(kept, retired)}
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed)
	require.Empty(t, f.present(retired))
	require.Len(t, f.present(kept), 6, "the declared group is kept")
	require.Len(t, g.present(retired), 6, "the other cluster's group of the same name is not touched")

	missing, err := orphan.NewCleaner(cached, f.c, orphan.Options{Index: "no-such-index", Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	_, err = missing.Clean(testkit.Context(t), orphan.Input{Owner: g.cluster, Declared: []v1alpha1.RoleGroupRef{kept}, Ledger: ledgerOf(retired)})
	require.ErrorContains(t, err, "no-such-index")
	require.Len(t, g.present(retired), 6)
}
