package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// A podOverride asking for a privileged container is applied as asked: the
// restricted defaults leave out allowPrivilegeEscalation, which the API
// server refuses beside privileged, and the pods run. An override that
// states both itself cannot be applied: its group is refused before any
// write, naming the user's field, and the other groups are reconciled.
func TestPrivilegedPodOverrideIsAppliedCoherently(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "priv", map[string]map[string]int32{"server": {"privileged": 1, "contradiction": 1}})
	override := func(group, securityContext string) {
		g := cr.Spec.Roles["server"].RoleGroups[group]
		g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"containers":[{"name":"server","securityContext":` + securityContext + `}]}}`)}
		cr.Spec.Roles["server"].RoleGroups[group] = g
	}
	override("privileged", `{"privileged":true}`)
	override("contradiction", `{"privileged":true,"allowPrivilegeEscalation":false}`)
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)

	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonFailed, time.Minute)
	msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded)
	field := "spec.roles.server.roleGroups.contradiction.podOverrides.spec.containers[name=server].securityContext"
	for _, want := range []string{field, "privileged", "allowPrivilegeEscalation"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Degraded message %q does not contain %q", msg, want)
		}
	}
	if strings.Contains(msg, "server/privileged") {
		t.Errorf("Degraded message %q blames the coherent group too", msg)
	}
	waitEvent(t, cp.Client, ns, "priv", reconciler.ReasonInvalidSpec, field)

	// The privileged group runs, as asked.
	name := builders.RoleGroupResourceName("priv", "server", "privileged")
	sts, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*appsv1.StatefulSet, bool, error) {
		sts := &appsv1.StatefulSet{}
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, sts)
		return sts, err == nil && sts.Status.ReadyReplicas == 1, client.IgnoreNotFound(err)
	}, 2*time.Minute)
	if err != nil {
		t.Fatalf("the privileged group did not run: %v", err)
	}
	sc := findContainer(sts.Spec.Template.Spec.Containers, "server").SecurityContext
	if sc == nil || sc.Privileged == nil || !*sc.Privileged || sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		t.Errorf("the privileged group's container security context is %+v, want privileged without allowPrivilegeEscalation=false", sc)
	}

	// Nothing of the refused group was written.
	refused := builders.RoleGroupResourceName("priv", "server", "contradiction")
	for _, o := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}} {
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: refused}, o); !apierrors.IsNotFound(err) {
			t.Errorf("%T %s of the refused group: %v, want it never written", o, refused, err)
		}
	}
}

// findContainer returns the container called name, or an empty one.
func findContainer(cs []corev1.Container, name string) corev1.Container {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return corev1.Container{}
}
