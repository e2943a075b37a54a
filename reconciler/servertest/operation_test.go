package servertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
)

// While reconciliation is paused nothing changes, whatever the spec says;
// clearing the switch applies what accumulated.
func TestPausedClusterIsObservedOnly(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "hold", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", 2*time.Minute)
	name := builders.RoleGroupResourceName("hold", "server", "default")

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		c.Spec.ClusterOperation = &commonsv1alpha1.ClusterOperationSpec{ReconciliationPaused: true}
		g := c.Spec.Roles["server"].RoleGroups["default"]
		g.Replicas = ptrTo(int32(3))
		c.Spec.Roles["server"].RoleGroups["default"] = g
	}); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionPaused, "True", reconciler.ReasonPaused, time.Minute)
	sts := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, sts); err != nil {
		t.Fatal(err)
	}
	if *sts.Spec.Replicas != 1 {
		t.Fatalf("a paused cluster was scaled to %d", *sts.Spec.Replicas)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) { c.Spec.ClusterOperation = nil }); err != nil {
		t.Fatal(err)
	}
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionPaused, "False", "", time.Minute)
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (int32, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, sts)
		return sts.Status.ReadyReplicas, err == nil && sts.Status.ReadyReplicas == 3, err
	}, time.Minute); err != nil {
		t.Fatalf("unpausing did not apply the new size: %v", err)
	}
}

// A stopped cluster keeps every object and runs no pod.
func TestStoppedClusterRunsNoPods(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	startOperator(t, cp, ns, baseConfig())

	cr := newCluster(ns, "stop", map[string]map[string]int32{"server": {"default": 2}})
	cr.Spec.ClusterOperation = &commonsv1alpha1.ClusterOperationSpec{Stopped: true}
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionStopped, "True", reconciler.ReasonStopped, time.Minute)
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionAvailable, "True", "", time.Minute)
	sts := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("stop", "server", "default")}, sts); err != nil {
		t.Fatal(err)
	}
	if *sts.Spec.Replicas != 0 {
		t.Errorf("a stopped cluster's StatefulSet has %d replicas", *sts.Spec.Replicas)
	}
}

// A storage resize cannot be applied to a StatefulSet: it is reported as
// ImmutableFieldIgnored, again on the next pass while the difference lasts,
// and the StatefulSet keeps its claim template.
func TestStorageResizeIsReportedEveryPass(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cat := catalog()
	server := cat["server"]
	server.DataVolume = &builders.DataVolume{MountPath: "/data"}
	cat["server"] = server
	cfg.Roles = reconciler.StaticRoles[*sampleCluster](cat)
	cfg.HealthCheckInterval = -1
	cfg.ProgressInterval = time.Hour
	op := startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "disk", map[string]map[string]int32{"server": {"default": 1}})
	size := func(q string) *commonsv1alpha1.RoleGroupConfigSpec {
		return &commonsv1alpha1.RoleGroupConfigSpec{Resources: &commonsv1alpha1.ResourcesSpec{
			Storage: &commonsv1alpha1.StorageResource{Capacity: ptrTo(resource.MustParse(q))}}}
	}
	rs := cr.Spec.Roles["server"]
	rs.Config = size("1Gi")
	cr.Spec.Roles["server"] = rs
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	name := builders.RoleGroupResourceName("disk", "server", "default")
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &appsv1.StatefulSet{})
		return err == nil, err == nil, client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatal(err)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) {
		rs := c.Spec.Roles["server"]
		rs.Config = size("5Gi")
		c.Spec.Roles["server"] = rs
	}); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, cp.Client, ns, "disk", reconciler.ReasonImmutableFieldIgnored, name, "spec.volumeClaimTemplates")
	// Every further pass states it again: the event becomes a series.
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (int32, bool, error) {
		if _, err := op.r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
			return 0, false, err
		}
		list := &eventsv1.EventList{}
		if err := cp.Client.List(ctx, list, client.InNamespace(ns)); err != nil {
			return 0, false, err
		}
		for _, e := range list.Items {
			if e.Reason == reconciler.ReasonImmutableFieldIgnored && e.Series != nil {
				return e.Series.Count, e.Series.Count >= 2, nil
			}
		}
		return 1, false, nil
	}, 30*time.Second); err != nil {
		t.Fatalf("the ignored resize was not reported again: %v", err)
	}
	sts := &appsv1.StatefulSet{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, sts); err != nil {
		t.Fatal(err)
	}
	if got := sts.Spec.VolumeClaimTemplates[0].Spec.Resources.Requests.Storage().String(); got != "1Gi" {
		t.Errorf("claim template size %s, want the preserved 1Gi", got)
	}
}

// With WorkloadRBAC the cluster's ServiceAccount gets a Role and a
// RoleBinding; an empty rule list revokes them; a foreign RoleBinding of
// the same name bound elsewhere is refused, naming it.
func TestWorkloadRBAC(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	cfg := baseConfig()
	cfg.WorkloadRBAC = func(cr *sampleCluster) []rbacv1.PolicyRule {
		if cr.Spec.Note == "revoke" {
			return []rbacv1.PolicyRule{}
		}
		return []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}
	}
	startOperator(t, cp, ns, cfg)

	cr := newCluster(ns, "rbac", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(cr)
	sa := builders.ServiceAccountName("SampleCluster", "rbac")
	waitCondition(t, cp.Client, key, commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)
	rb := &rbacv1.RoleBinding{}
	if err := cp.Client.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: sa}, rb); err != nil {
		t.Fatalf("RoleBinding: %v", err)
	}
	if rb.Subjects[0].Name != sa || rb.RoleRef.Name != sa {
		t.Errorf("RoleBinding binds %+v to %+v", rb.Subjects, rb.RoleRef)
	}
	pod := &corev1.PodList{}
	if err := cp.Client.List(t.Context(), pod, client.InNamespace(ns)); err != nil || len(pod.Items) == 0 {
		t.Fatalf("pods: %v", err)
	}
	if pod.Items[0].Spec.ServiceAccountName != sa {
		t.Errorf("pods run as %q, want %q", pod.Items[0].Spec.ServiceAccountName, sa)
	}

	if err := updateCluster(t, cp.Client, key, func(c *sampleCluster) { c.Spec.Note = "revoke" }); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: sa}, &rbacv1.Role{})
		return apierrors.IsNotFound(err), apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatalf("an empty rule list did not revoke the Role: %v", err)
	}

	// Another cluster whose RoleBinding name is taken by someone else's.
	foreign := &rbacv1.RoleBinding{
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "someone", Namespace: ns}},
	}
	foreign.Namespace, foreign.Name = ns, builders.ServiceAccountName("SampleCluster", "taken")
	if err := cp.Client.Create(t.Context(), foreign); err != nil {
		t.Fatal(err)
	}
	taken := newCluster(ns, "taken", map[string]map[string]int32{"server": {"default": 1}})
	if err := cp.Client.Create(t.Context(), taken); err != nil {
		t.Fatal(err)
	}
	got := waitCondition(t, cp.Client, client.ObjectKeyFromObject(taken), commonsv1alpha1.ConditionDegraded, "True", "", time.Minute)
	if msg := conditionMessage(got, commonsv1alpha1.ConditionDegraded); !strings.Contains(msg, "RoleBinding "+ns+"/"+foreign.Name) || !strings.Contains(msg, "roleRef") {
		t.Errorf("Degraded message %q does not name the foreign RoleBinding", msg)
	}
	after := &rbacv1.RoleBinding{}
	if err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(foreign), after); err != nil || after.RoleRef.Name != "view" {
		t.Errorf("the foreign RoleBinding was touched: %v %+v", err, after.RoleRef)
	}
}
