package servertest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// rawWriter is the baseline: it writes every object with the engine's
// concurrency and no bookkeeping at all (create, update or delete blindly).
func rawWriter(ctx context.Context, c client.Client, objects []client.Object, write func(context.Context, client.Client, client.Object) error) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan client.Object)
	)
	for range apply.DefaultConcurrency {
		wg.Go(func() {
			for o := range next {
				if err := write(ctx, c, o.DeepCopyObject().(client.Object)); err != nil {
					mu.Lock()
					first = cmpErr(first, err)
					mu.Unlock()
				}
			}
		})
	}
	for _, o := range objects {
		next <- o
	}
	close(next)
	wg.Wait()
	return first
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func rawCreate(ctx context.Context, c client.Client, o client.Object) error { return c.Create(ctx, o) }

func rawUpdate(ctx context.Context, c client.Client, o client.Object) error {
	live := &corev1.ConfigMap{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(o), live); err != nil {
		return err
	}
	live.Data = o.(*corev1.ConfigMap).Data
	return c.Update(ctx, live)
}

func rawDelete(ctx context.Context, c client.Client, o client.Object) error {
	return client.IgnoreNotFound(c.Delete(ctx, o))
}

// step is one measured step: elapsed time and the requests it made.
type step struct {
	elapsed time.Duration
	delta   apicount.Snapshot
}

// coldChunks is how many alternating chunks the cold scenario runs.
const coldChunks = 10

// add accumulates another step.
func (s *step) add(o step) {
	s.elapsed += o.elapsed
	if s.delta == nil {
		s.delta = apicount.Snapshot{}
	}
	for k, v := range o.delta {
		s.delta[k] += v
	}
}

func measureStep(b *testing.B, counter *apicount.Counter, run func() error) step {
	b.Helper()
	before := counter.Snapshot()
	start := time.Now()
	require.NoError(b, run())
	return step{elapsed: time.Since(start), delta: counter.Snapshot().Sub(before)}
}

// metrics are the figures of one scenario, by unit.
type metrics map[string]float64

// report returns one scenario's figures: the engine's objects/s, the raw
// writer's in the same run and their ratio, the engine's requests per
// object by verb, and the writes of both.
func report(n int, engine, raw step) metrics {
	perSec := func(s step) float64 { return float64(n) / s.elapsed.Seconds() }
	m := metrics{
		"objects/s":       perSec(engine),
		"raw-objects/s":   perSec(raw),
		"ratio":           perSec(engine) / perSec(raw),
		"writes/pass":     float64(engine.delta.Writes()),
		"raw-writes/pass": float64(raw.delta.Writes()),
	}
	for _, verb := range []string{"get", "list", "create", "update", "delete"} {
		m[verb+"/obj"] = float64(engine.delta.Verb(verb)) / float64(n)
	}
	return m
}

// scenario runs one step of a stateful sequence exactly once, however
// often the testing package calls the sub-benchmark (it calls again when a
// call was shorter than -benchtime), and reports its figures on every call.
func scenario(b *testing.B, name string, run func(b *testing.B) metrics) {
	var got metrics
	b.Run(name, func(b *testing.B) {
		if got == nil {
			got = run(b)
		}
		for unit, v := range got {
			b.ReportMetric(v, unit)
		}
	})
}

// BenchmarkApply runs, per set size, the engine as the README sets it up
// (manager cache from ManagerOptions) beside a raw writer with the same
// concurrency, on the same control plane in the same run: cold apply,
// no-op pass, one live edit reverted, delete. Run with -benchtime 1x.
func BenchmarkApply(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchScenarios(b, n) })
	}
}

func benchScenarios(b *testing.B, n int) {
	ctx := logr.NewContext(b.Context(), logr.Discard())
	rawNS := testkit.Namespace(b, env.Require(b).Client)
	rawObjects := configMaps(rawNS, n, "1")
	m := newManaged(b, "bench", apply.Options{})
	objects := configMaps(m.ns, n, "1")
	// The heap figure is what the objects add: the manager's cache, the
	// inventory and the engine's per-pass data, not the caller's desired
	// objects nor the manager itself.
	heapBefore := testkit.HeapInUse()

	scenario(b, "cold", func(b *testing.B) metrics {
		// Alternate the engine and the raw writer chunk by chunk, so that
		// both see the same load of a shared machine.
		var engine, raw step
		for k := range coldChunks {
			lo, hi := k*n/coldChunks, (k+1)*n/coldChunks
			var inv inventory.Inventory
			engine.add(measureStep(b, m.counter, func() error {
				for {
					res, err := m.chunkEngine.Apply(ctx, &inv, objects[lo:hi], m.pass())
					if err != nil || res.Done {
						return err
					}
				}
			}))
			m.inv.Items = append(m.inv.Items, inv.Items...)
			raw.add(measureStep(b, m.counter, func() error { return rawWriter(ctx, m.raw, rawObjects[lo:hi], rawCreate) }))
		}
		return report(n, engine, raw)
	})
	m.settle(b, ctx, objects)
	heapAfter := testkit.HeapInUse()
	scenario(b, "noop", func(b *testing.B) metrics {
		engine := measureStep(b, m.counter, func() error { return m.applyAll(ctx, objects) })
		// A raw writer cannot tell a no-op: it writes everything again.
		raw := measureStep(b, m.counter, func() error { return rawWriter(ctx, m.raw, rawObjects, rawUpdate) })
		got := report(n, engine, raw)
		got["heap-MiB/1k"] = float64(int64(heapAfter)-int64(heapBefore)) / (1 << 20) / (float64(n) / 1000)
		inv, err := json.Marshal(m.inv)
		require.NoError(b, err)
		got["inventory-B/obj"] = float64(len(inv)) / float64(n)
		return got
	})
	scenario(b, "one-edit", func(b *testing.B) metrics {
		m.edit(b, ctx, objects[n/2])
		engine := measureStep(b, m.counter, func() error { return m.applyAll(ctx, objects) })
		require.Equal(b, 1, engine.delta.Writes(), "the edit was not reverted exactly once")
		raw := measureStep(b, m.counter, func() error { return rawWriter(ctx, m.raw, rawObjects, rawUpdate) })
		return report(n, engine, raw)
	})
	scenario(b, "one-edit-hinted", func(b *testing.B) metrics {
		live := m.edit(b, ctx, objects[n/3])
		// The watch event names the object; the pass reads only it.
		pass := m.pass()
		pass.Changed = []inventory.Key{inventory.KeyOf(configMapKind.GroupKind(), live.Namespace, live.Name)}
		engine := measureStep(b, m.counter, func() error {
			res, err := m.engine.Apply(ctx, &m.inv, objects, pass)
			if err == nil && !res.Done {
				err = fmt.Errorf("not done: %v", res.Failed())
			}
			return err
		})
		require.Equal(b, 1, engine.delta.Writes(), "the edit was not reverted exactly once")
		raw := measureStep(b, m.counter, func() error { return rawWriter(ctx, m.raw, rawObjects, rawUpdate) })
		return report(n, engine, raw)
	})
	scenario(b, "delete", func(b *testing.B) metrics {
		engine := measureStep(b, m.counter, func() error {
			for {
				res, err := m.engine.Delete(ctx, &m.inv, m.pass())
				if err != nil || res.Done {
					return err
				}
			}
		})
		raw := measureStep(b, m.counter, func() error { return rawWriter(ctx, m.raw, rawObjects, rawDelete) })
		return report(n, engine, raw)
	})
}

// BenchmarkNoOpPass measures a no-op pass with the README's setup at
// growing set sizes: its cost per object must stay flat (linear in N) and
// it must make no request.
func BenchmarkNoOpPass(b *testing.B) {
	for _, n := range []int{1000, 5000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := logr.NewContext(b.Context(), logr.Discard())
			m := newManaged(b, "bench", apply.Options{})
			objects := configMaps(m.ns, n, "1")
			require.NoError(b, m.applyAll(ctx, objects))
			m.settle(b, ctx, objects)
			before := m.counter.Snapshot()
			for b.Loop() {
				res, err := m.engine.Apply(ctx, &m.inv, objects, m.pass())
				require.NoError(b, err)
				require.True(b, res.Done)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
			b.ReportMetric(float64(m.counter.Snapshot().Sub(before).Total())/float64(b.N), "requests/pass")
		})
	}
}

// edit changes obj's data as someone else would and waits until the
// manager's cache saw it, as a pass triggered by the watch event would.
func (m *managed) edit(b *testing.B, ctx context.Context, obj client.Object) *corev1.ConfigMap {
	b.Helper()
	live := &corev1.ConfigMap{}
	require.NoError(b, m.raw.Get(ctx, client.ObjectKeyFromObject(obj), live))
	live.Data["v"] = "edited"
	require.NoError(b, m.raw.Update(ctx, live))
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (bool, bool, error) {
		seen := &metav1.PartialObjectMetadata{}
		seen.SetGroupVersionKind(configMapKind)
		err := m.cached.Get(ctx, client.ObjectKeyFromObject(live), seen)
		return false, err == nil && seen.ResourceVersion == live.ResourceVersion, err
	}, time.Minute)
	require.NoError(b, err)
	return live
}
