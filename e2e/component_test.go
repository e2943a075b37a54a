package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/testkit"
)

// componentName is the component reconciler's name.
const componentName = "bundle.e2e.opkit.dev"

// componentOperator returns a component operator process for the crash
// harness: a manager restricted to ns with the component reconciler for
// Bundle, built from scratch from cfg on every start.
func componentOperator(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error {
	return func(ctx context.Context, cfg *rest.Config) error {
		mgr, err := bundleManager(ctx, cfg, operatorLogger(t), ns, nil)
		if err != nil {
			return err
		}
		return mgr.Start(ctx)
	}
}

// bundleManager builds a manager restricted to ns with the component
// reconciler for Bundle set up in it, sharded by sharding when it is not
// nil.
func bundleManager(ctx context.Context, cfg *rest.Config, log logr.Logger, ns string, sharding component.Sharding) (ctrl.Manager, error) {
	gen, err := bundle.Generator()
	if err != nil {
		return nil, err
	}
	r, err := component.New[*bundle.Bundle](componentName, gen, component.Options{
		Kinds: bundle.Kinds(), RetryInterval: 5 * time.Second, Namespaces: []string{ns}, Sharding: sharding,
	})
	if err != nil {
		return nil, err
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:     testScheme(),
		Cache:      cacheOpts,
		Client:     clientOpts,
		Metrics:    metricsserver.Options{BindAddress: "0"},
		Logger:     log,
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		return nil, err
	}
	return mgr, r.SetupWithManager(ctx, mgr)
}

// newBundle returns a bundle of configMaps ConfigMaps and a Deployment of
// one replica.
func newBundle(ns, name string, configMaps int32) *bundle.Bundle {
	return &bundle.Bundle{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       bundle.BundleSpec{Message: "hello " + name, Replicas: 1, ConfigMaps: configMaps},
	}
}

// bundleName is the name of the i-th bundle of a scenario.
func bundleName(i int) string { return fmt.Sprintf("b-%02d", i) }

// releaseBundles removes the finalizers of ns's bundles once no operator
// runs, so that the namespace can go.
func releaseBundles(t testing.TB, c client.Client, ns string) {
	t.Helper()
	t.Cleanup(func() {
		var list bundle.BundleList
		if err := c.List(context.Background(), &list, client.InNamespace(ns)); err != nil {
			t.Errorf("listing bundles: %v", err)
			return
		}
		for i := range list.Items {
			b := &list.Items[i]
			if len(b.Finalizers) > 0 {
				b.Finalizers = nil
				if err := c.Update(context.Background(), b); client.IgnoreNotFound(err) != nil {
					t.Errorf("releasing bundle %s: %v", b.Name, err)
				}
			}
		}
	})
}

// bundleConfigMaps is how many ConfigMaps each scenario bundle renders.
const bundleConfigMaps = 3

// bundles is the component workload: bundles of three ConfigMaps, a
// Deployment and a Service, the first one blocked by a foreign object in
// its way.
var bundles = workload{
	what:     "bundles",
	operator: componentOperator,
	resource: func(ns string, i int) client.Object { return newBundle(ns, bundleName(i), bundleConfigMaps) },
	foreign:  foreignToBundles,
	settled: func(c client.Client, ns string, n int) testkit.Condition[string] {
		return bundlesJudged(c, ns, n, func(b *bundle.Bundle) (bool, string) {
			if b.Name == bundleName(0) {
				return bundleWaitsOnForeign(b, ns)
			}
			return bundleReady(b)
		})
	},
	capture:  componentCapturer,
	problems: componentInventoryProblems,
	failures: errorState,
	prepare:  releaseBundles,
}

// foreignToBundles are someone else's objects in the bundles' way: one
// has the name of the first bundle's first ConfigMap and another owner's
// id, the other carries the first bundle's labels under a name the bundle
// does not render.
func foreignToBundles(ns string) []*corev1.ConfigMap {
	first := bundleName(0)
	return []*corev1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: first + "-0000",
			Annotations: map[string]string{componentName + "/" + apply.AnnotationOwnerID: "someone-else"}},
			Data: map[string]string{"owner": "someone else"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: first + "-9999",
			Labels: map[string]string{"app.kubernetes.io/name": "bundle", "app.kubernetes.io/instance": first}},
			Data: map[string]string{"owner": "someone else"}},
	}
}

// bundleWaitsOnForeign reports whether the first bundle is where the
// foreign object leaves it: not ready, saying why and nothing else, for
// its generation.
func bundleWaitsOnForeign(b *bundle.Bundle, ns string) (bool, string) {
	cond := b.Status.ReadyCondition()
	want := fmt.Sprintf("ConfigMap %s/%s-0000 exists with owner %q", ns, b.Name, "someone-else")
	// Only on it: a second line is another failure still to be retried.
	if cond == nil || b.Status.ObservedGeneration != b.Generation || !strings.Contains(cond.Message, want) || strings.Contains(cond.Message, "\n") {
		return false, fmt.Sprintf("%s: not waiting on the foreign ConfigMap alone: state %s, %+v", b.Name, b.Status.State, cond)
	}
	return true, ""
}
