package servertest_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/go-logr/logr"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/generators"
	"github.com/opkit-dev/opkit/generators/helm"
	"github.com/opkit-dev/opkit/generators/kustomize"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// shopKinds are the kinds the shop's generator renders.
var shopKinds = []schema.GroupVersionKind{
	corev1.SchemeGroupVersion.WithKind("ConfigMap"),
	corev1.SchemeGroupVersion.WithKind("Secret"),
	corev1.SchemeGroupVersion.WithKind("Service"),
	appsv1.SchemeGroupVersion.WithKind("Deployment"),
}

// shopGenerator renders the test chart and the test kustomization, one
// after the other: a component operator may combine generators freely.
func shopGenerator(t testing.TB) generators.Generator {
	t.Helper()
	chart, err := helm.New(os.DirFS("testdata"), "chart", helm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := kustomize.New(os.DirFS("testdata"), "kustomize", kustomize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return generators.GeneratorFunc(func(ctx context.Context, namespace, name string, parameters map[string]any) ([]client.Object, error) {
		a, err := chart.Generate(ctx, namespace, name, parameters)
		if err != nil {
			return nil, err
		}
		b, err := tree.Generate(ctx, namespace, name, parameters)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	})
}

// operator is a running component operator.
type operator struct {
	name string
	r    *component.Reconciler[*shop.Shop]
	mgr  ctrl.Manager
	// c reads the cluster uncached, as a user would.
	c client.Client
	// stop stops the manager, as the operator's process ending would; the
	// components keep its finalizers.
	stop func()
}

var operators atomic.Int32

// setup configures an operator before it starts.
type setup struct {
	opts      component.Options
	config    func(*rest.Config)
	generator generators.Generator
	hooks     func(r *component.Reconciler[*shop.Shop])
	// counter, when set, counts the operator's requests.
	counter *apicount.Counter
	// namespaces are further namespaces the operator's cache sees.
	namespaces []string
	// logger, when set, replaces the test's logger.
	logger *logr.Logger
	// name, when set, is the reconciler's name (to start an operator again
	// after a restart); empty means a new one.
	name string
}

// startOperator runs a component operator with a reconciler of its own
// name on the test cluster until the test ends, watching the namespace ns
// only (the shops of other tests are not its business).
func startOperator(t *testing.T, cp *controlplane.ControlPlane, ns string, s setup) *operator {
	t.Helper()
	name := s.name
	if name == "" {
		name = fmt.Sprintf("op%d.shop.opkit.dev", operators.Add(1))
	}
	cfg := cp.RESTConfig()
	if s.config != nil {
		s.config(cfg)
	}
	if s.counter != nil {
		cfg.Wrap(s.counter.WrapTransport)
	}
	opts := s.opts
	if opts.Namespaces == nil {
		opts.Namespaces = append([]string{ns}, s.namespaces...)
	}
	if opts.Kinds == nil {
		opts.Kinds = shopKinds
	}
	if opts.RetryInterval == 0 {
		opts.RetryInterval = 5 * time.Second
	}
	gen := s.generator
	if gen == nil {
		gen = shopGenerator(t)
	}
	r, err := component.New[*shop.Shop](name, gen, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.hooks != nil {
		s.hooks(r)
	}
	cacheOpts, clientOpts := r.ManagerOptions()
	log := testkit.Logger(t)
	if s.logger != nil {
		log = *s.logger
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 testScheme(),
		Cache:                  cacheOpts,
		Client:                 clientOpts,
		Logger:                 log,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// An operator started again after a stop has the same name.
		Controller: config.Controller{SkipNameValidation: ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetupWithManager(t.Context(), mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("manager: %v", err)
			}
		})
	}
	t.Cleanup(func() {
		stop()
		// Nobody removes the stopped operator's finalizers any more; let
		// the namespace go.
		list := &shop.ShopList{}
		if err := cp.Client.List(context.Background(), list, client.InNamespace(ns)); err != nil {
			t.Errorf("listing shops: %v", err)
			return
		}
		for i := range list.Items {
			s := &list.Items[i]
			if len(s.Finalizers) > 0 {
				s.Finalizers = nil
				if err := cp.Client.Update(context.Background(), s); client.IgnoreNotFound(err) != nil {
					t.Errorf("removing the finalizers of %s: %v", s.Name, err)
				}
			}
		}
	})
	if !mgr.GetCache().WaitForCacheSync(t.Context()) {
		t.Fatal("the manager's cache did not sync")
	}
	return &operator{name: name, r: r, mgr: mgr, c: cp.Client, stop: stop}
}

// newShop creates a shop in ns.
func newShop(t *testing.T, c client.Client, ns, name string, spec shop.ShopSpec) *shop.Shop {
	t.Helper()
	s := &shop.Shop{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	if err := c.Create(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitShop waits until the shop satisfies ok and returns it; on timeout the
// error shows its last state and Ready condition.
func waitShop(t *testing.T, c client.Client, key client.ObjectKey, timeout time.Duration, ok func(*shop.Shop) bool) *shop.Shop {
	t.Helper()
	s, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (*shop.Shop, bool, error) {
		s := &shop.Shop{}
		if err := c.Get(ctx, key, s); err != nil {
			return nil, false, err
		}
		return s, ok(s), nil
	}, timeout)
	if err != nil {
		t.Fatalf("waiting for shop %s: %v (last: %s)", key, err, describe(s))
	}
	return s
}

// waitState waits for the shop's state and Ready reason.
func waitState(t *testing.T, c client.Client, key client.ObjectKey, state componentv1alpha1.State, reason string, timeout time.Duration) *shop.Shop {
	t.Helper()
	return waitShop(t, c, key, timeout, func(s *shop.Shop) bool {
		cond := s.Status.ReadyCondition()
		return s.Status.State == state && cond != nil && cond.Reason == reason && cond.ObservedGeneration == s.Generation
	})
}

func describe(s *shop.Shop) string {
	if s == nil {
		return "none"
	}
	msg := ""
	if c := s.Status.ReadyCondition(); c != nil {
		msg = c.Reason + ": " + c.Message
	}
	return fmt.Sprintf("generation %d, state %s, revision %d, %s", s.Generation, s.Status.State, s.Status.Revision, msg)
}

// events lists the events regarding the named object in ns, oldest first.
func events(t *testing.T, c client.Client, ns, name string) []eventsv1.Event {
	t.Helper()
	list := &eventsv1.EventList{}
	if err := c.List(t.Context(), list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	var out []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// waitEvent waits for an event regarding name with reason whose note
// contains every one of parts.
func waitEvent(t *testing.T, c client.Client, ns, name, reason string, parts ...string) eventsv1.Event {
	t.Helper()
	e, err := testkit.WaitFor(t.Context(), func(context.Context) (eventsv1.Event, bool, error) {
		var last eventsv1.Event
		for _, e := range events(t, c, ns, name) {
			if e.Reason != reason {
				continue
			}
			last = e
			if containsAll(e.Note, parts) {
				return e, true, nil
			}
		}
		return last, false, nil
	}, time.Minute)
	if err != nil {
		t.Fatalf("waiting for a %s event on %s containing %q: %v", reason, name, parts, err)
	}
	return e
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// get reads an object, failing the test on any error but not-found, which
// it reports as false.
func get(t *testing.T, c client.Client, ns, name string, obj client.Object) bool {
	t.Helper()
	err := c.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, obj)
	if client.IgnoreNotFound(err) != nil {
		t.Fatal(err)
	}
	return err == nil
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}

func contains(s []string, v string) bool { return slices.Contains(s, v) }
