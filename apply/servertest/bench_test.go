package servertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

const benchObjects = 1000

// benchEnv is a namespace with benchObjects ConfigMaps to apply, a counted
// client without client-side rate limiting, and a reconciler.
type benchEnv struct {
	ns      string
	c       client.Client
	counter *apicount.Counter
	r       *apply.Reconciler
	objects []client.Object
	inv     inventory.Inventory
}

func newBenchEnv(b *testing.B, value string) *benchEnv {
	b.Helper()
	cp := env.Require(b)
	e := &benchEnv{ns: testkit.Namespace(b, cp.Client), counter: apicount.New()}
	cfg := rest.CopyConfig(cp.Config)
	cfg.QPS, cfg.Burst = -1, 0 // measure the server, not client-go's limiter
	cfg.Wrap(e.counter.WrapTransport)
	var err error
	e.c, err = client.New(cfg, client.Options{Scheme: cp.Client.Scheme()})
	require.NoError(b, err)
	e.r, err = apply.New(name, e.c, apply.Options{})
	require.NoError(b, err)
	e.objects = benchSet(e.ns, value)
	return e
}

func (e *benchEnv) pass() apply.PassOptions {
	return apply.PassOptions{Owner: apply.Owner{ID: "bench", DefaultNamespace: e.ns}}
}

func benchSet(ns, value string) []client.Object {
	objects := make([]client.Object, benchObjects)
	for i := range objects {
		objects[i] = configMap(ns, fmt.Sprintf("cm-%04d", i), map[string]string{"v": value}, nil)
	}
	return objects
}

// measure runs step once and reports throughput and requests per object.
func measure(b *testing.B, e *benchEnv, step func(ctx context.Context) error) {
	b.Helper()
	before := e.counter.Snapshot()
	start := time.Now()
	require.NoError(b, step(b.Context()))
	elapsed := time.Since(start)
	delta := e.counter.Snapshot().Sub(before)
	b.ReportMetric(float64(benchObjects)/elapsed.Seconds(), "objects/s")
	b.ReportMetric(float64(delta.Total())/benchObjects, "req/obj")
	b.ReportMetric(float64(delta.Verb("get"))/benchObjects, "get/obj")
	b.ReportMetric(float64(delta.Writes()), "writes/pass")
}

func (e *benchEnv) applyAll(ctx context.Context) error {
	for {
		res, err := e.r.Apply(ctx, &e.inv, e.objects, e.pass())
		if err != nil || res.Done {
			return err
		}
	}
}

func (e *benchEnv) deleteAll(ctx context.Context) error {
	for {
		res, err := e.r.Delete(ctx, &e.inv, e.pass())
		if err != nil || res.Done {
			return err
		}
	}
}

// naiveApply is the baseline: read every object, then create or update it.
func (e *benchEnv) naiveApply(ctx context.Context) error {
	for _, o := range e.objects {
		want := o.DeepCopyObject().(*corev1.ConfigMap)
		live := &corev1.ConfigMap{}
		err := e.c.Get(ctx, client.ObjectKeyFromObject(want), live)
		if client.IgnoreNotFound(err) != nil {
			return err
		}
		if err != nil {
			if err := e.c.Create(ctx, want); err != nil {
				return err
			}
			continue
		}
		live.Data = want.Data
		if err := e.c.Update(ctx, live); err != nil {
			return err
		}
	}
	return nil
}

func (e *benchEnv) naiveDelete(ctx context.Context) error {
	for _, o := range e.objects {
		if err := client.IgnoreNotFound(e.c.Delete(ctx, o.DeepCopyObject().(client.Object))); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkApply1000 measures the reconciler and the naive baseline on the
// same control plane, scenario by scenario.
func BenchmarkApply1000(b *testing.B) {
	scenarios := []struct {
		name  string
		setup func(e *benchEnv, ctx context.Context) error
		run   func(e *benchEnv, ctx context.Context) error
	}{
		{"cold/reconciler", nil, (*benchEnv).applyAll},
		{"cold/naive", nil, (*benchEnv).naiveApply},
		{"noop/reconciler", (*benchEnv).applyAll, (*benchEnv).applyAll},
		{"noop/naive", (*benchEnv).naiveApply, (*benchEnv).naiveApply},
		{"one-change/reconciler", (*benchEnv).applyAll, func(e *benchEnv, ctx context.Context) error {
			e.objects[benchObjects/2] = configMap(e.ns, fmt.Sprintf("cm-%04d", benchObjects/2), map[string]string{"v": "changed"}, nil)
			return e.applyAll(ctx)
		}},
		{"one-change/naive", (*benchEnv).naiveApply, func(e *benchEnv, ctx context.Context) error {
			e.objects[benchObjects/2] = configMap(e.ns, fmt.Sprintf("cm-%04d", benchObjects/2), map[string]string{"v": "changed"}, nil)
			return e.naiveApply(ctx)
		}},
		{"delete/reconciler", (*benchEnv).applyAll, (*benchEnv).deleteAll},
		{"delete/naive", (*benchEnv).naiveApply, (*benchEnv).naiveDelete},
	}
	for _, s := range scenarios {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				e := newBenchEnv(b, "1")
				if s.setup != nil {
					require.NoError(b, s.setup(e, b.Context()))
				}
				b.StartTimer()
				measure(b, e, func(ctx context.Context) error { return s.run(e, ctx) })
			}
		})
	}
}
