package operator_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/examples/internal/manifest"
	"github.com/opkit-dev/opkit/examples/internal/rbacproof"
	"github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/examples/website/operator"
	"github.com/opkit-dev/opkit/examples/website/samples"
	"github.com/opkit-dev/opkit/reconciler/rbac"
	"github.com/opkit-dev/opkit/shard"
	"github.com/opkit-dev/opkit/testkit"
)

// unreachable are the rights the operator holds that its life here cannot
// use, and why.
var unreachable = map[string]string{
	"create namespaces":                                 "the website's objects live in the Website's namespace, which exists; the object engine creates a missing namespace of a component that renders into one",
	"get websites.web.examples.opkit.dev":               "the component is read afresh when a status write meets a conflict; the test's single writer causes none",
	"update websites/finalizers.web.examples.opkit.dev": "checked by the API server's owner-reference admission when the render record (owned by the component) is written, not a request of its own",
	"patch events.events.k8s.io":                        "the events API patches a repeated event's series on a timer of six minutes and more, which no test waits for",
}

// The rules the component reconciler derives from its options (StrictKinds:
// the kinds of Kinds and nothing else) are enough and not more: an
// operator acting as a ServiceAccount that holds them takes the sample
// through its life — installed, its referenced Secret changed, upgraded,
// deleted — without a request refused, and uses every rule. As a
// cluster-wide operator, as one restricted to the sample's namespace, and
// as a sharded replica (a shard member instead of leader election, its
// Lease rights from ManifestOptions.Sharding) that joins the ring, claims
// the Website and leaves.
func TestDerivedRBACIsEnoughAndNotMore(t *testing.T) {
	for _, mode := range []string{"cluster-wide", "namespaced", "sharded"} {
		t.Run(mode, func(t *testing.T) {
			cp := env.Require(t)
			ns := testkit.Namespace(t, cp.Client)
			sharded := mode == "sharded"
			opts := operator.Options{}
			if mode != "cluster-wide" {
				opts.Namespaces = []string{ns}
			}
			if sharded {
				// The rules follow from the option being set; the
				// member that acts comes once its identity exists.
				opts.Sharding = newMember(t, cp.Client, ns, opts.Namespaces)
			}
			r, err := operator.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Permissions(operator.Scheme(), rbac.Resolver{Mapper: cp.Client.RESTMapper()})
			if err != nil {
				t.Fatal(err)
			}
			cfg, log, opns := rbacproof.Grant(t, cp, p, rbac.ManifestOptions{
				Name: "website-" + mode, ServiceAccount: "website-operator", Namespaces: opts.Namespaces,
				LeaderElection: !sharded, Sharding: sharded,
			})
			var leave func()
			if sharded {
				direct, err := client.New(cfg, client.Options{Scheme: operator.Scheme()})
				if err != nil {
					t.Fatal(err)
				}
				m := newMember(t, direct, opns, opts.Namespaces)
				leave = join(t, m)
				opts.Sharding = m
				if r, err = operator.New(opts); err != nil {
					t.Fatal(err)
				}
			}
			cacheOpts, clientOpts := r.ManagerOptions()
			mgr, err := ctrl.NewManager(cfg, ctrl.Options{
				Scheme: operator.Scheme(), Cache: cacheOpts, Client: clientOpts,
				Metrics:                 metricsserver.Options{BindAddress: "0"},
				Logger:                  testkit.Logger(t),
				Controller:              config.Controller{SkipNameValidation: ptr.To(true)},
				LeaderElection:          !sharded,
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
			driveThroughLife(t, cp.Client, ns)
			stop()
			if leave != nil {
				leave()
			}
			rbacproof.Check(t, log, p, unreachable)
		})
	}
}

// newMember returns the member "replica-0" of the ring "website", its
// Lease in leaseNamespace, reading and writing through c.
func newMember(t *testing.T, c client.Client, leaseNamespace string, namespaces []string) *shard.Member {
	t.Helper()
	m, err := shard.New(c, c, shard.Options{
		Ring: "website", Member: "replica-0", Namespace: leaseNamespace, Namespaces: namespaces,
		Resources:     []schema.GroupVersionKind{v1alpha1.GroupVersion.WithKind("Website")},
		LeaseDuration: 6 * time.Second, RenewInterval: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// join starts m and returns the function that stops it and releases its
// Lease, once the replica's manager has stopped.
func join(t *testing.T, m *shard.Member) (leave func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Start(ctx) }()
	return func() {
		t.Helper()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shard member: %v", err)
		}
		if err := m.Release(context.Background()); err != nil {
			t.Errorf("releasing the shard lease: %v", err)
		}
	}
}

// driveThroughLife installs the sample, changes the Secret it refers to,
// upgrades it and deletes it.
func driveThroughLife(t *testing.T, c client.Client, ns string) {
	t.Helper()
	for _, f := range []string{"dependencies.yaml", "website.yaml"} {
		objs, err := manifest.Objects(samples.Files, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range objs {
			u.SetNamespace(ns)
			if err := c.Create(t.Context(), u); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := client.ObjectKey{Namespace: ns, Name: "home"}
	waitState(t, c, key, 1)
	editByHand(t, c, ns)
	secret := &corev1.Secret{}
	if err := c.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "home-admin-password"}, secret); err != nil {
		t.Fatal(err)
	}
	secret.StringData = map[string]string{"password": "changed"}
	if err := c.Update(t.Context(), secret); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, key, 2)
	if err := update(t, c, key, func(w *v1alpha1.Website) { w.Spec.Version = "1.28" }); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, key, 3)
	w := &v1alpha1.Website{}
	if err := c.Get(t.Context(), key, w); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(t.Context(), w); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, key, &v1alpha1.Website{})
		left := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "home-web"}, &appsv1.Deployment{})
		return "website or Deployment left", apierrors.IsNotFound(err) && apierrors.IsNotFound(left), nil
	}, time.Minute); err != nil {
		t.Fatalf("deleting the Website: %v", err)
	}
}

// editByHand changes the content of one object of each kind the operator
// applies, as kubectl edit would, and waits until the operator wrote it
// back: each change moves the object's generation or resourceVersion, which
// the operator confirms through an uncached read before it writes.
func editByHand(t *testing.T, c client.Client, ns string) {
	t.Helper()
	edits := []struct {
		obj    client.Object
		name   string
		edit   func(client.Object)
		undone func(client.Object) bool
	}{
		{&corev1.ConfigMap{}, "home-content", func(o client.Object) { o.(*corev1.ConfigMap).Data["index.html"] = "defaced" },
			func(o client.Object) bool { return o.(*corev1.ConfigMap).Data["index.html"] != "defaced" }},
		{&corev1.Secret{}, "home-admin", func(o client.Object) { o.(*corev1.Secret).Data["password"] = []byte("leaked") },
			func(o client.Object) bool { return string(o.(*corev1.Secret).Data["password"]) != "leaked" }},
		{&corev1.Service{}, "home", func(o client.Object) { o.(*corev1.Service).Spec.Ports[0].Port = 8081 },
			func(o client.Object) bool { return o.(*corev1.Service).Spec.Ports[0].Port != 8081 }},
		{&appsv1.Deployment{}, "home-web", func(o client.Object) { o.(*appsv1.Deployment).Spec.Replicas = ptr.To[int32](7) },
			func(o client.Object) bool { return *o.(*appsv1.Deployment).Spec.Replicas != 7 }},
		{&networkingv1.NetworkPolicy{}, "home-web", func(o client.Object) {
			o.(*networkingv1.NetworkPolicy).Spec.PolicyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}
		}, func(o client.Object) bool { return len(o.(*networkingv1.NetworkPolicy).Spec.PolicyTypes) == 1 }},
		{&policyv1.PodDisruptionBudget{}, "home-web", func(o client.Object) {
			o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable = ptr.To(intstr.FromInt32(0))
		}, func(o client.Object) bool { return o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable.String() != "0" }},
	}
	for _, e := range edits {
		key := client.ObjectKey{Namespace: ns, Name: e.name}
		// A controller may write the object's status meanwhile: retry.
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
			if err := c.Get(ctx, key, e.obj); err != nil {
				return false, false, err
			}
			e.edit(e.obj)
			err := c.Update(ctx, e.obj)
			return err == nil, err == nil, client.IgnoreNotFound(err)
		}, time.Minute); err != nil {
			t.Fatalf("editing %T %s: %v", e.obj, e.name, err)
		}
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
			err := c.Get(ctx, key, e.obj)
			return e.obj.GetResourceVersion(), err == nil && e.undone(e.obj), err
		}, time.Minute); err != nil {
			t.Fatalf("the edit of %T %s was not reverted: %v", e.obj, e.name, err)
		}
	}
}
