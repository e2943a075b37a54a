package servertest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// recordingReader returns an uncached reader whose requests log records.
func recordingReader(t *testing.T) (client.Reader, *apicount.Log) {
	t.Helper()
	cp := env.Require(t)
	log := apicount.NewLog()
	cfg := cp.RESTConfig()
	cfg.Wrap(log.WrapTransport)
	r, err := client.New(cfg, client.Options{Scheme: cp.Client.Scheme(), Mapper: cp.Client.RESTMapper()})
	require.NoError(t, err)
	return r, log
}

// heldEntry is a ledger entry whose inventory records the group's
// StatefulSet, ConfigMap and three Services, and no PodDisruptionBudget.
func heldEntry(f *fixture, ref v1alpha1.RoleGroupRef) v1alpha1.RoleGroupStatus {
	name := builders.RoleGroupResourceName(f.cluster.Name, ref.Role, ref.Group)
	item := func(group, kind, name string) inventory.Item {
		return inventory.Item{Group: group, Version: "v1", Kind: kind, Namespace: f.ns, Name: name}
	}
	return v1alpha1.RoleGroupStatus{RoleGroupRef: ref, Objects: inventory.Inventory{Items: []inventory.Item{
		item("", "ConfigMap", name),
		item("", "Service", name),
		item("", "Service", builders.HeadlessServiceName(name)),
		item("", "Service", builders.MetricsServiceName(name)),
		item("apps", "StatefulSet", name),
	}}}
}

// A retirement reads the group through the client; the uncached reader is
// asked only for the verdict that nothing is left, in the pass that
// reclaims the group, with one list per kind the group's ledger entry
// records, and never of a kind the group did not hold.
func TestRetirementReadsUncachedOnlyToConfirm(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 0})
	// The group never had a PodDisruptionBudget.
	pdb := &policyv1.PodDisruptionBudget{}
	pdb.Namespace, pdb.Name = f.ns, builders.RoleGroupResourceName(f.cluster.Name, retired.Role, retired.Group)
	require.NoError(t, f.c.Delete(t.Context(), pdb))
	reader, log := recordingReader(t)
	cleaner, err := orphan.NewCleaner(f.c, reader, orphan.Options{Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	in := orphan.Input{Owner: f.cluster, Ledger: []v1alpha1.RoleGroupStatus{heldEntry(f, retired)}}

	var confirm []apicount.Request
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (int, bool, error) {
		seen := len(log.Requests())
		res, err := cleaner.Clean(ctx, in)
		if err != nil {
			return 0, false, err
		}
		uncached := log.Requests()[seen:]
		if slices.Contains(res.Reclaimed(), retired) {
			confirm = uncached
			return len(uncached), true, nil
		}
		require.Empty(t, uncached, "a pass that does not reclaim the group reads nothing uncached (stage %s)", res.Groups[0].Stage)
		return len(uncached), false, nil
	}, time.Minute)
	require.NoError(t, err)
	var listed []string
	for _, r := range confirm {
		require.Equal(t, "list", r.Verb, "the confirmation lists, by the group's labels: %+v", r)
		listed = append(listed, r.Resource)
	}
	slices.Sort(listed)
	require.Equal(t, []string{"configmaps", "services", "statefulsets"}, listed,
		"one list per kind the group held, none of PodDisruptionBudgets")
	require.Empty(t, f.snapshot(retired), "nothing of the group is left")
}

// An object the client (a cache) does not show is found by the uncached
// confirmation, and deleted before the group is reclaimed.
func TestObjectTheCacheMissesIsDeletedBeforeTheGroupIsReclaimed(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 0})
	name := builders.RoleGroupResourceName(f.cluster.Name, retired.Role, retired.Group)
	configMaps := schema.GroupResource{Resource: "configmaps"}
	blind := interceptor.NewClient(f.c.(client.WithWatch), interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if _, ok := obj.(*corev1.ConfigMap); ok && key.Name == name {
				return apierrors.NewNotFound(configMaps, key.Name)
			}
			return c.Get(ctx, key, obj, opts...)
		},
	})
	cleaner, err := orphan.NewCleaner(blind, f.c, orphan.Options{Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}

	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		res, err := cleaner.Clean(ctx, in)
		if err != nil {
			return "", false, err
		}
		left := f.snapshot(retired)
		if slices.Contains(res.Reclaimed(), retired) {
			require.Empty(t, left, "reclaimed with objects left")
			return left, true, nil
		}
		return left, false, nil
	}, time.Minute)
	require.NoError(t, err)
	cm := &corev1.ConfigMap{}
	require.True(t, apierrors.IsNotFound(f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: name}, cm)), "the ConfigMap the cache missed is deleted")
}
