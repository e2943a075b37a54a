package operator_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/builders"
	"github.com/opkit-dev/opkit/examples/internal/rbacproof"
	"github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/kafka/operator"
	"github.com/opkit-dev/opkit/reconciler/rbac"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// unreachable are the rights the operator holds that its life here cannot
// use, and why.
var unreachable = map[string]string{
	"get kafkaclusters.kafka.examples.opkit.dev":               "the resource is read afresh when a status write meets a conflict; the test's single writer causes none",
	"update kafkaclusters/finalizers.kafka.examples.opkit.dev": "checked by the API server's owner-reference admission on each write of an owned object, not a request of its own: TestFinalizersRuleIsNeeded shows the writes refused without it",
	"patch events.events.k8s.io":                               "the events API patches a repeated event's series on a timer of six minutes and more, which no test waits for",
	"list events":                                              "read only when pods the StatefulSet controller should have created are missing (admission refused them); TestPodsRefusedByAdmissionDegradeTheCluster in reconciler/servertest covers that path",
	"get services":                                             readAfresh,
	"get statefulsets.apps":                                    readAfresh,
	"get poddisruptionbudgets.policy":                          readAfresh,
}

// readAfresh is why the uncached reads of some applied kinds are not
// reached here.
const readAfresh = "read uncached only when the cache's view cannot decide: an update meeting a conflict, a cache that has not seen the operator's own last write (TestStaleClientIsConfirmedByReader, TestPassesOnALaggingCacheDoNotWriteAgain in apply/servertest), an apparent change of a kind without a generation; the edits here change stated labels, which the cached copy shows, and a retirement reads from the cache"

// The rules the product reconciler derives from its configuration are
// enough and not more: an operator acting as a ServiceAccount that holds
// them (and nothing else) takes the sample through its life — created,
// scaled, reconfigured, a role group added and retired with its volume
// claims, deleted — without a request refused, and uses every rule. Both
// as a cluster-wide operator (a ClusterRole) and as one restricted to the
// sample's namespace (a Role there).
func TestDerivedRBACIsEnoughAndNotMore(t *testing.T) {
	for _, mode := range []string{"cluster-wide", "namespaced"} {
		t.Run(mode, func(t *testing.T) {
			cp := env.Require(t)
			ns := testkit.Namespace(t, cp.Client)
			volumes(t, cp, 8)
			var restricted []string
			if mode == "namespaced" {
				restricted = []string{ns}
			}
			r, err := operator.New(operator.Options{Namespaces: restricted})
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Permissions(operator.Scheme(), rbac.Resolver{Mapper: cp.Client.RESTMapper()})
			if err != nil {
				t.Fatal(err)
			}
			cfg, log, opns := rbacproof.Grant(t, cp, p, rbac.ManifestOptions{
				Name: "kafka-" + mode, ServiceAccount: "kafka-operator", Namespaces: restricted, LeaderElection: true,
			})
			cacheOpts, clientOpts := r.ManagerOptions()
			mgr, err := ctrl.NewManager(cfg, ctrl.Options{
				Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts,
				Metrics:                 metricsserver.Options{BindAddress: "0"},
				Logger:                  testkit.Logger(t),
				Controller:              config.Controller{SkipNameValidation: ptr.To(true)},
				LeaderElection:          true,
				LeaderElectionID:        operator.Name,
				LeaderElectionNamespace: opns,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.SetupWithManager(t.Context(), mgr); err != nil {
				t.Fatal(err)
			}
			stop := rbacproof.Start(t, mgr)
			driveThroughLife(t, cp.Client, ns, log)
			stop()
			rbacproof.Check(t, log, p, unreachable)
		})
	}
}

// driveThroughLife creates the sample, scales it, changes its config, adds
// and retires a role group (its volume claims deleted), and deletes it.
func driveThroughLife(t *testing.T, c client.Client, ns string, log *apicount.Log) {
	t.Helper()
	for _, f := range []string{"dependencies.yaml", "kafkacluster.yaml"} {
		createSample(t, c, ns, f)
	}
	key := client.ObjectKey{Namespace: ns, Name: "events"}
	waitAvailable(t, c, key)
	change := func(what string, f func(*v1alpha1.KafkaCluster)) {
		t.Helper()
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
			k := &v1alpha1.KafkaCluster{}
			if err := c.Get(ctx, key, k); err != nil {
				return false, false, err
			}
			f(k)
			err := c.Update(ctx, k)
			return err == nil, err == nil, client.IgnoreNotFound(err)
		}, time.Minute); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		waitAvailable(t, c, key)
	}
	change("scale", func(k *v1alpha1.KafkaCluster) {
		g := k.Spec.Roles[operator.RoleBroker].RoleGroups["default"]
		g.Replicas = ptr.To[int32](4)
		k.Spec.Roles[operator.RoleBroker].RoleGroups["default"] = g
	})
	change("reconfigure", func(k *v1alpha1.KafkaCluster) {
		rs := k.Spec.Roles[operator.RoleBroker]
		rs.ConfigOverrides["server.properties"]["num.network.threads"] = "16"
		k.Spec.Roles[operator.RoleBroker] = rs
	})
	editByHand(t, c, ns, log)
	change("resize the storage (refused, reported on every pass)", func(k *v1alpha1.KafkaCluster) {
		rs := k.Spec.Roles[operator.RoleBroker]
		if rs.Config == nil {
			rs.Config = &commonsv1alpha1.RoleGroupConfigSpec{}
		}
		rs.Config.Resources = &commonsv1alpha1.ResourcesSpec{Storage: &commonsv1alpha1.StorageResource{Capacity: ptr.To(resource.MustParse("2Gi"))}}
		k.Spec.Roles[operator.RoleBroker] = rs
	})
	change("resize back", func(k *v1alpha1.KafkaCluster) {
		rs := k.Spec.Roles[operator.RoleBroker]
		rs.Config.Resources = nil
		k.Spec.Roles[operator.RoleBroker] = rs
	})
	change("turn the controllers' disruption budget off", func(k *v1alpha1.KafkaCluster) {
		rs := k.Spec.Roles[operator.RoleController]
		rs.RoleConfig = &commonsv1alpha1.RoleConfigSpec{PodDisruptionBudget: &commonsv1alpha1.PodDisruptionBudgetSpec{Enabled: ptr.To(false)}}
		k.Spec.Roles[operator.RoleController] = rs
	})
	change("add a role group", func(k *v1alpha1.KafkaCluster) {
		k.Spec.Roles[operator.RoleBroker].RoleGroups["burst"] = commonsv1alpha1.RoleGroupSpec{Replicas: ptr.To[int32](1)}
	})
	change("retire the role group with its claims", func(k *v1alpha1.KafkaCluster) {
		if k.Annotations == nil {
			k.Annotations = map[string]string{}
		}
		k.Annotations[commonsv1alpha1.AnnotationDeletePVCs] = "true"
		delete(k.Spec.Roles[operator.RoleBroker].RoleGroups, "burst")
	})
	burst := client.ObjectKey{Namespace: ns, Name: builders.RoleGroupResourceName("events", operator.RoleBroker, "burst")}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		k := &v1alpha1.KafkaCluster{}
		if err := c.Get(ctx, key, k); err != nil {
			return "", false, err
		}
		cleanup := meta.FindStatusCondition(k.Status.Conditions, commonsv1alpha1.ConditionOrphanCleanupPending)
		err := c.Get(ctx, burst, &corev1.ConfigMap{})
		return fmt.Sprint(cleanup), apierrors.IsNotFound(err) && cleanup != nil && cleanup.Status == metav1.ConditionFalse, client.IgnoreNotFound(err)
	}, 3*time.Minute); err != nil {
		t.Fatalf("the retired role group was not reclaimed: %v", err)
	}
	k := &v1alpha1.KafkaCluster{}
	if err := c.Get(t.Context(), key, k); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(t.Context(), k); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, key, &v1alpha1.KafkaCluster{})
		return "still there", apierrors.IsNotFound(err), client.IgnoreNotFound(err)
	}, time.Minute); err != nil {
		t.Fatalf("the cluster was not deleted: %v", err)
	}
}

// editByHand changes one object of each kind the operator applies, as
// kubectl edit would, and waits for the operator to revert each: a label
// the operator states; for the ServiceAccount first an annotation it does
// not, which it leaves (a ServiceAccount has no generation: the operator
// confirms such a change through an uncached read, which log records).
func editByHand(t *testing.T, c client.Client, ns string, log *apicount.Log) {
	t.Helper()
	saKey := client.ObjectKey{Namespace: ns, Name: builders.ServiceAccountName("KafkaCluster", "events")}
	sa := &corev1.ServiceAccount{}
	if err := c.Get(t.Context(), saKey, sa); err != nil {
		t.Fatal(err)
	}
	sa.Annotations["example.com/note"] = "edited"
	if err := c.Update(t.Context(), sa); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(context.Context) (int, bool, error) {
		n := 0
		for _, r := range log.Requests() {
			if r.Verb == "get" && r.Resource == "serviceaccounts" && r.Name == saKey.Name {
				n++
			}
		}
		return n, n > 0, nil
	}, time.Minute); err != nil {
		var seen []string
		for _, r := range log.Requests() {
			if r.Resource == "serviceaccounts" {
				seen = append(seen, fmt.Sprintf("%s %s %d", r.Verb, r.Name, r.Status))
			}
		}
		t.Fatalf("the operator did not look at the edited ServiceAccount: %v; its requests on ServiceAccounts: %v", err, seen)
	}
	group := builders.RoleGroupResourceName("events", operator.RoleBroker, "default")
	edits := []struct {
		obj  client.Object
		name string
	}{
		{&corev1.Service{}, group},
		{&corev1.ConfigMap{}, group},
		{&appsv1.StatefulSet{}, group},
		{&policyv1.PodDisruptionBudget{}, "events-" + operator.RoleBroker},
		{&corev1.ServiceAccount{}, saKey.Name},
	}
	const label = "app.kubernetes.io/managed-by"
	for _, e := range edits {
		key := client.ObjectKey{Namespace: ns, Name: e.name}
		if err := c.Get(t.Context(), key, e.obj); err != nil {
			t.Fatalf("%T %s: %v", e.obj, e.name, err)
		}
		want := e.obj.GetLabels()[label]
		labels := e.obj.GetLabels()
		labels[label] = "someone"
		e.obj.SetLabels(labels)
		if err := c.Update(t.Context(), e.obj); err != nil {
			t.Fatalf("editing %T %s: %v", e.obj, e.name, err)
		}
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			err := c.Get(ctx, key, e.obj)
			return e.obj.GetLabels()[label], err == nil && e.obj.GetLabels()[label] == want, err
		}, time.Minute); err != nil {
			t.Fatalf("the edit of %T %s was not reverted: %v", e.obj, e.name, err)
		}
	}
}

// Without the finalizers rule the API server (enforcing owner-reference
// permissions) refuses every object the cluster owns; the refusal shows up
// on the resource, naming the write and the object refused ("creating
// ConfigMap …: … is forbidden"), instead of a silent retry.
func TestFinalizersRuleIsNeeded(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	r, err := operator.New(operator.Options{Namespaces: []string{ns}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Permissions(operator.Scheme(), rbac.Resolver{Mapper: cp.Client.RESTMapper()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Namespaced {
		p.Namespaced[i].Resources = slices.DeleteFunc(slices.Clone(p.Namespaced[i].Resources), func(r string) bool {
			return strings.HasSuffix(r, "/finalizers")
		})
	}
	cfg, _, _ := rbacproof.Grant(t, cp, p, rbac.ManifestOptions{Name: "kafka-no-finalizers", ServiceAccount: "kafka-operator", Namespaces: []string{ns}})
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     testkit.Logger(t),
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupWithManager(t.Context(), mgr); err != nil {
		t.Fatal(err)
	}
	testkit.RunManager(t, mgr)
	for _, f := range []string{"dependencies.yaml", "kafkacluster.yaml"} {
		createSample(t, cp.Client, ns, f)
	}
	key := client.ObjectKey{Namespace: ns, Name: "events"}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		k := &v1alpha1.KafkaCluster{}
		if err := cp.Client.Get(ctx, key, k); err != nil {
			return "", false, err
		}
		c := meta.FindStatusCondition(k.Status.Conditions, commonsv1alpha1.ConditionReconcileComplete)
		if c == nil {
			return "", false, nil
		}
		return c.Message, c.Status == metav1.ConditionFalse && strings.Contains(c.Message, "creating ConfigMap") &&
			strings.Contains(c.Message, "is forbidden") && strings.Contains(c.Message, "set finalizers"), nil
	}, time.Minute); err != nil {
		t.Fatalf("the refusal is not reported on the cluster: %v", err)
	}
}
