package servertest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

// Two products in one process may both have a cluster called "demo" in
// one namespace: their series stay apart, and forgetting one keeps the
// other.
func TestMetricsKeepProductsApart(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	// The other product's cluster resource: any kind will do.
	other := &corev1.ConfigMap{ObjectMeta: meta(f.ns, f.cluster.Name, nil)}
	require.NoError(t, f.c.Create(t.Context(), other))

	reg := prometheus.NewRegistry()
	sample, _ := newCleaner(t, f, orphan.Options{Registerer: reg, GracePeriod: time.Hour})
	product, _ := newCleaner(t, f, orphan.Options{Registerer: reg})

	res, err := sample.Clean(testkit.Context(t), orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)})
	require.NoError(t, err)
	require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending())
	// The same group name under the other product: its objects are not
	// that product's, so nothing of its group is left.
	res, err = product.Clean(testkit.Context(t), orphan.Input{Owner: other, Ledger: ledgerOf(retired)})
	require.NoError(t, err)
	require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Reclaimed())
	require.Len(t, f.present(retired), 6, "the other product's pass touches nothing")

	header := `
# HELP opkit_orphan_cleanup_pending Role groups removed from a cluster's spec whose resources are not yet fully reclaimed.
# TYPE opkit_orphan_cleanup_pending gauge
`
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(header+fmt.Sprintf(`
opkit_orphan_cleanup_pending{cluster="demo",kind="ConfigMap",namespace=%[1]q} 0
opkit_orphan_cleanup_pending{cluster="demo",kind="SampleCluster",namespace=%[1]q} 1
`, f.ns)), orphan.MetricPending))

	require.NoError(t, product.Forget(other))
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(header+fmt.Sprintf(`
opkit_orphan_cleanup_pending{cluster="demo",kind="SampleCluster",namespace=%q} 1
`, f.ns)), orphan.MetricPending), "Forget deletes only its own cluster's series")

	require.NoError(t, sample.Forget(f.cluster))
	n, err := testutil.GatherAndCount(reg, orphan.MetricPending)
	require.NoError(t, err)
	require.Zero(t, n)
}
