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

// A role the product does not have is the user's typo: it is reported with
// its near miss (condition and Warning event), while the other role is
// still reconciled and nothing is deleted.
func TestUnknownRoleIsReportedWithItsNearMiss(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "typo", map[string]map[string]int32{"servr": {"default": 1}, "gateway": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	got := waitCondition(t, cp.Client, client.ObjectKeyFromObject(cr), commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonFailed, time.Minute)
	msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded)
	for _, want := range []string{"spec.roles.servr", `did you mean "server"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("Degraded message %q does not contain %q", msg, want)
		}
	}
	waitEvent(t, cp.Client, ns, "typo", reconciler.ReasonUnknownRole, "spec.roles.servr", `"server"`)
	gw := &appsv1.StatefulSet{}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("typo", "gateway", "default")}, gw)
		return err == nil, err == nil, client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatalf("the gateway role was not reconciled beside the typo: %v", err)
	}
}

// A pod override that displaces a framework mount fails its role group
// alone: a condition and a Warning naming podOverrides, nothing of the
// group deleted, the sibling group converging.
func TestBadPodOverrideFailsOnlyItsGroup(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "po", map[string]map[string]int32{"server": {"good": 1, "bad": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)

	// The user mounts something else at the config directory of group bad.
	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		g := c.Spec.Roles["server"].RoleGroups["bad"]
		g.PodOverrides = &runtime.RawExtension{Raw: []byte(`{"spec":{"containers":[{"name":"server","volumeMounts":[{"name":"scratch","mountPath":"/opkit/config"}]}],"volumes":[{"name":"scratch","emptyDir":{}}]}}`)}
		c.Spec.Roles["server"].RoleGroups["bad"] = g
		good := c.Spec.Roles["server"].RoleGroups["good"]
		good.Replicas = ptrTo(int32(2))
		c.Spec.Roles["server"].RoleGroups["good"] = good
	}); err != nil {
		t.Fatal(err)
	}
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonFailed, time.Minute)
	msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded)
	for _, want := range []string{"server/bad", "spec.roles.server.roleGroups.bad.podOverrides", "/opkit/config"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Degraded message %q does not contain %q", msg, want)
		}
	}
	waitEvent(t, cp.Client, ns, "po", reconciler.ReasonInvalidSpec, "podOverrides")

	// The sibling converged to its new size; the bad group's objects stay.
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (int32, bool, error) {
		sts := &appsv1.StatefulSet{}
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("po", "server", "good")}, sts)
		return sts.Status.ReadyReplicas, err == nil && sts.Status.ReadyReplicas == 2, err
	}, time.Minute); err != nil {
		t.Fatalf("the good group did not converge beside the bad one: %v", err)
	}
	bad := builders.RoleGroupResourceName("po", "server", "bad")
	for _, o := range []client.Object{&appsv1.StatefulSet{}, &corev1.ConfigMap{}, &corev1.Service{}} {
		if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: bad}, o); err != nil {
			t.Errorf("%T %s of the failing group: %v (nothing of it may be deleted)", o, bad, err)
		}
	}
	sts := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: bad}, sts); err == nil {
		for _, v := range sts.Spec.Template.Spec.Volumes {
			if v.Name == "scratch" {
				t.Errorf("the rejected override reached the StatefulSet")
			}
		}
	}
}

// A declared dependency that is missing stops the pass before anything is
// applied (Degraded, a Warning naming the field); creating it heals the
// cluster through the dependency watch.
func TestMissingDependencyAppliesNothingUntilCreated(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.Dependencies = func(cr *sampleCluster) []reconciler.Dependency {
		return []reconciler.Dependency{{Kind: "Secret", Name: cr.Name + "-credentials", Field: "spec.note"}}
	}
	cfg.HealthCheckInterval = -1 // only the watch may heal it
	startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "deps", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	got := waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "True", reconciler.ReasonFailed, time.Minute)
	if msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded); !strings.Contains(msg, "Secret "+ns+"/deps-credentials not found") {
		t.Errorf("Degraded message %q does not name the missing Secret", msg)
	}
	waitEvent(t, cp.Client, ns, "deps", reconciler.ReasonDependencyMissing, "deps-credentials")
	err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("deps", "server", "default")}, &appsv1.StatefulSet{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("a StatefulSet was applied although a dependency is missing: %v", err)
	}

	secret := &corev1.Secret{}
	secret.Namespace, secret.Name = ns, "deps-credentials"
	if err := cp.Client.Create(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionDegraded, "False", "", time.Minute)
}

// updateCluster changes the cluster resource, retrying conflicts.
func updateCluster(t *testing.T, c client.Client, key client.ObjectKey, change func(*sampleCluster)) error {
	t.Helper()
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		cr := &sampleCluster{}
		if err := c.Get(ctx, key, cr); err != nil {
			return false, false, err
		}
		change(cr)
		err := c.Update(ctx, cr)
		if apierrors.IsConflict(err) {
			return false, false, nil
		}
		return err == nil, err == nil, err
	}, 30*time.Second)
	return err
}

func ptrTo[T any](v T) *T { return &v }
