package e2e_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/e2e/bundle"
	"github.com/opkit-dev/opkit/generators/helm"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// idleWindow is how long BenchmarkIdleRandomChart watches each idle
// component.
const idleWindow = 30 * time.Second

// BenchmarkIdleRandomChart runs a component whose chart draws random
// values (randAlphaNum, uuidv4), waits until it is Ready, then counts the
// operator's passes and writes while nothing changes: a component renders
// when its inputs change, not on every pass, so both stay at zero (the goal
// is 0 and 0; a reconciler that renders on every pass rewrites the random
// objects, sees its own write through its watch, and loops).
func BenchmarkIdleRandomChart(b *testing.B) {
	cp := env.Require(b)
	chart, err := helm.New(os.DirFS("testdata"), "random", helm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var passes, writes, minutes float64
	for i := 0; b.Loop(); i++ {
		ns := testkit.Namespace(b, cp.Client)
		counter := apicount.New()
		var n atomic.Int32
		r, err := component.New[*bundle.Bundle](fmt.Sprintf("idle%d.e2e.opkit.dev", i), chart, component.Options{
			Kinds:      []schema.GroupVersionKind{corev1.SchemeGroupVersion.WithKind("Secret"), corev1.SchemeGroupVersion.WithKind("ConfigMap")},
			Namespaces: []string{ns},
		})
		if err != nil {
			b.Fatal(err)
		}
		r.WithPostReconcileHook(func(context.Context, client.Client, *bundle.Bundle) error {
			n.Add(1)
			return nil
		})
		cfg := cp.RESTConfig()
		cfg.Wrap(counter.WrapTransport)
		cacheOpts, clientOpts := r.ManagerOptions()
		mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: testScheme(), Cache: cacheOpts, Client: clientOpts,
			Metrics: metricsserver.Options{BindAddress: "0"}, Logger: testkit.QuietLogger(),
			Controller: config.Controller{SkipNameValidation: ptr.To(true)}})
		if err != nil {
			b.Fatal(err)
		}
		if err := r.SetupWithManager(b.Context(), mgr); err != nil {
			b.Fatal(err)
		}
		releaseBundles(b, cp.Client, ns)
		testkit.RunManager(b, mgr)
		bd := &bundle.Bundle{}
		bd.Namespace, bd.Name = ns, "idle"
		if err := cp.Client.Create(b.Context(), bd); err != nil {
			b.Fatal(err)
		}
		if _, err := testkit.WaitFor(b.Context(), func(ctx context.Context) (string, bool, error) {
			got := &bundle.Bundle{}
			err := cp.Client.Get(ctx, client.ObjectKeyFromObject(bd), got)
			return string(got.Status.State), err == nil && got.Status.State == componentv1alpha1.StateReady, err
		}, 2*time.Minute); err != nil {
			b.Fatalf("the component did not become Ready: %v", err)
		}
		before, pb := counter.Snapshot(), n.Load()
		start := time.Now()
		<-time.After(idleWindow) // the measurement window of a benchmark, not a wait for a condition
		d := counter.Snapshot().Sub(before)
		for k, v := range d {
			if k.IsWrite() && !strings.HasPrefix(k.Resource, "events") {
				writes += float64(v)
			}
		}
		passes += float64(n.Load() - pb)
		minutes += time.Since(start).Minutes()
	}
	b.ReportMetric(passes/minutes, "passes/min")
	b.ReportMetric(writes/minutes, "writes/min")
}
