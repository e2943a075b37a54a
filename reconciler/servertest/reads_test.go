package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// Converging and retiring a role group read pods and the group's objects
// from the cache: a converge lists no pods from the API server (the
// health check reads them from the pods' informer, started with the
// operator), and a retirement reads none of the removed group's objects
// by name and nothing of a kind the group never held (the sample's role
// groups have no PodDisruptionBudget of their own); what it confirms
// uncached, it lists by the group's labels.
func TestConvergeAndRetirementReadFromTheCache(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.HealthCheckInterval = -1
	op := startOperator(t, cp, ns, cfg)
	podsWatched := apicount.Key{Verb: "watch", Resource: "pods"}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		n := op.count.Snapshot()[podsWatched]
		return n, n > 0, nil
	}, time.Minute); err != nil {
		t.Fatalf("the operator does not watch pods: %v", err)
	}

	before := op.count.Snapshot()
	cr := newCluster(ns, "cached", map[string]map[string]int32{"server": {"keep": 1, "old": 2}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	settle(t, op, key)
	if d := op.count.Snapshot().Sub(before); d[apicount.Key{Verb: "list", Resource: "pods"}] != 0 {
		t.Errorf("converging listed pods from the API server:\n%s", d)
	}

	before = op.count.Snapshot()
	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		delete(c.Spec.Roles["server"].RoleGroups, "old")
	}); err != nil {
		t.Fatal(err)
	}
	old := builders.RoleGroupResourceName("cached", "server", "old")
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		var left []string
		for _, o := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}} {
			if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: old}, o); err == nil {
				left = append(left, o.GetObjectKind().GroupVersionKind().Kind)
			}
		}
		return strings.Join(left, ","), len(left) == 0, nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("the removed group's objects are not reclaimed: %v", err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionOrphanCleanupPending, "False", "", time.Minute)
	settle(t, op, key)
	d := op.count.Snapshot().Sub(before)
	for _, k := range []apicount.Key{
		{Verb: "get", Resource: "statefulsets.apps"},
		{Verb: "get", Resource: "configmaps"},
		{Verb: "get", Resource: "services"},
		{Verb: "get", Resource: "poddisruptionbudgets.policy"},
		{Verb: "list", Resource: "poddisruptionbudgets.policy"},
		{Verb: "list", Resource: "pods"},
	} {
		if d[k] != 0 {
			t.Errorf("the retirement made a %s of %s:\n%s", k.Verb, k.Resource, d)
		}
	}
}
