package servertest_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/testkit"
)

// A product with two roles converges on a control plane with real
// controllers: pods ready, Services, ConfigMaps and the role budgets exist,
// every object is owned by the cluster resource, and the status records
// each scope's objects.
func TestTwoRolesConverge(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	op := startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "demo", map[string]map[string]int32{"server": {"default": 3}, "gateway": {"a": 1, "b": 2}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	got := waitCondition(t, cp.Client, client.ObjectKeyFromObject(cr), commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)

	for _, g := range []struct {
		role, group string
		replicas    int32
	}{{"server", "default", 3}, {"gateway", "a", 1}, {"gateway", "b", 2}} {
		name := builders.RoleGroupResourceName("demo", g.role, g.group)
		sts := &appsv1.StatefulSet{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, sts); err != nil {
			t.Fatalf("StatefulSet %s: %v", name, err)
		}
		if sts.Status.ReadyReplicas != g.replicas {
			t.Errorf("StatefulSet %s: %d ready, want %d", name, sts.Status.ReadyReplicas, g.replicas)
		}
		if ref := metav1ControllerOf(sts); ref != cr.Name {
			t.Errorf("StatefulSet %s controlled by %q, want the cluster", name, ref)
		}
		cm := &corev1.ConfigMap{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, cm); err != nil {
			t.Fatalf("ConfigMap %s: %v", name, err)
		}
		if cm.Data["server.properties"] == "" {
			t.Errorf("ConfigMap %s has no server.properties: %v", name, cm.Data)
		}
		for _, svc := range []string{name, builders.HeadlessServiceName(name)} {
			if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: svc}, &corev1.Service{}); err != nil {
				t.Errorf("Service %s: %v", svc, err)
			}
		}
	}
	for _, role := range []string{"server", "gateway"} {
		pdb := &policyv1.PodDisruptionBudget{}
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: builders.RoleResourceName("demo", role)}, pdb); err != nil {
			t.Errorf("PodDisruptionBudget of role %s: %v", role, err)
		}
	}
	if n := len(got.Status.RoleGroups); n != 3 {
		t.Errorf("ledger has %d groups, want 3: %+v", n, got.Status.RoleGroups)
	}
	for _, e := range got.Status.RoleGroups {
		if e.Objects.Len() < 4 {
			t.Errorf("group %s/%s records %d objects, want at least 4", e.Role, e.Group, e.Objects.Len())
		}
	}
	if got.Status.Objects.Len() != 1 {
		t.Errorf("cluster scope records %d objects, want the ServiceAccount alone", got.Status.Objects.Len())
	}
	_ = op
}

func metav1ControllerOf(o client.Object) string {
	for _, r := range o.GetOwnerReferences() {
		if r.Controller != nil && *r.Controller {
			return r.Name
		}
	}
	return ""
}

var _ = context.Background
