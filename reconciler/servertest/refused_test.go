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

// Pods the namespace's Pod Security level refuses are never created, so
// there is no pod to look at: the StatefulSet controller's FailedCreate
// events say why. The cluster is degraded and unavailable with the
// admission's message; once the spec is fixed it becomes available.
func TestPodsRefusedByAdmissionDegradeTheCluster(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.RestrictedNamespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "refused", map[string]map[string]int32{"server": {"default": 1}})
	g := cr.Spec.Roles["server"].RoleGroups["default"]
	g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"hostNetwork":true}}`)}
	cr.Spec.Roles["server"].RoleGroups["default"] = g
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonPodsRefused, 3*time.Minute)
	for _, typ := range []string{commonsv1alpha1.ConditionDegraded, commonsv1alpha1.ConditionAvailable} {
		msg := conditionMessage(got, typ)
		for _, want := range []string{"refused-server-default-0", "violates PodSecurity", "hostNetwork"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s message %q does not contain %q", typ, msg, want)
			}
		}
	}
	if c := findCondition(got, commonsv1alpha1.ConditionAvailable); c == nil || c.Status != "False" || c.Reason != reconciler.ReasonPodsRefused {
		t.Errorf("Available = %+v, want False with reason %s", c, reconciler.ReasonPodsRefused)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		g := c.Spec.Roles["server"].RoleGroups["default"]
		g.PodOverrides = nil
		c.Spec.Roles["server"].RoleGroups["default"] = g
	}); err != nil {
		t.Fatal(err)
	}
	waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	waitCurrentCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "False", "", time.Minute)
}
