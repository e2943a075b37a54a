package servertest_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// Pods are not cached: a pod that cannot start keeps its StatefulSet
// unsettled, and the pass reads that group's pods to say why. The cluster
// is degraded naming the pod; once the spec is fixed it becomes available.
func TestPodThatCannotStartDegradesTheCluster(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "stuck", map[string]map[string]int32{"server": {"default": 1}})
	g := cr.Spec.Roles["server"].RoleGroups["default"]
	g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"nodeSelector":{"opkit.dev/no-such-node":"true"}}}`)}
	cr.Spec.Roles["server"].RoleGroups["default"] = g
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonPodsFailing, time.Minute)
	if msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded); !strings.Contains(msg, "stuck-server-default-0") || !strings.Contains(msg, "unschedulable") {
		t.Errorf("Degraded message %q does not name the unschedulable pod", msg)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		g := c.Spec.Roles["server"].RoleGroups["default"]
		g.PodOverrides = nil
		c.Spec.Roles["server"].RoleGroups["default"] = g
	}); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "False", "", time.Minute)
}
