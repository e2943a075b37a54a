package servertest

import (
	"fmt"
	"testing"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

// planRepeats is how many plans of the converged set are timed.
const planRepeats = 20

// BenchmarkPlan measures plans of a 20-object set with the README's setup
// (manager cache, API reader): a converged set, and sets in which 1, 5 or
// all 20 objects change, each timed beside the Apply pass that then writes
// the change (or, converged, beside a no-op pass), in the same run. The
// figures: requests per plan, dry runs and reads per changed object, and
// the plan's time as a ratio of the pass's. Run with -benchtime 1x.
func BenchmarkPlan(b *testing.B) {
	const n = 20
	ctx := logr.NewContext(b.Context(), logr.Discard())
	m := newManaged(b, "plan-bench", apply.Options{})
	objects := configMaps(m.ns, n, "1")
	require.NoError(b, m.applyAll(ctx, objects))
	m.settle(b, ctx, objects)

	scenario(b, "converged", func(b *testing.B) metrics {
		plan := measureStep(b, m.counter, func() error {
			for range planRepeats {
				p, err := m.engine.Plan(ctx, &m.inv, objects, m.pass())
				if err == nil && p.HasChanges() {
					err = fmt.Errorf("a converged set plans changes: %+v", p.Changes)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		pass := measureStep(b, m.counter, func() error {
			for range planRepeats {
				if _, err := m.engine.Apply(ctx, &m.inv, objects, m.pass()); err != nil {
					return err
				}
			}
			return nil
		})
		return metrics{
			"requests/plan":    float64(plan.delta.Total()) / planRepeats,
			"plan/noop-pass":   plan.elapsed.Seconds() / pass.elapsed.Seconds(),
			"µs/plan":          float64(plan.elapsed.Microseconds()) / planRepeats,
			"requests/noop":    float64(pass.delta.Total()) / planRepeats,
			"objects-per-plan": n,
		}
	})
	for i, k := range []int{1, 5, n} {
		scenario(b, fmt.Sprintf("changed-%d", k), func(b *testing.B) metrics {
			desired := changedConfigMaps(objects, k, fmt.Sprint("v", i))
			plan := measureStep(b, m.counter, func() error {
				p, err := m.engine.Plan(ctx, &m.inv, desired, m.pass())
				if err == nil && p.Count(apply.PlanUpdate) != k {
					err = fmt.Errorf("planned %d updates, want %d", p.Count(apply.PlanUpdate), k)
				}
				return err
			})
			pass := measureStep(b, m.counter, func() error { return m.applyAll(ctx, desired) })
			m.settle(b, ctx, desired)
			objects = desired
			return metrics{
				"dry-runs/changed": float64(plan.delta.Writes()) / float64(k),
				"reads/changed":    float64(plan.delta.Verb("get")+plan.delta.Verb("list")) / float64(k),
				"requests/plan":    float64(plan.delta.Total()),
				"plan/pass":        plan.elapsed.Seconds() / pass.elapsed.Seconds(),
				"pass-writes":      float64(pass.delta.Writes()),
			}
		})
	}
}

// changedConfigMaps returns objects with the data of the first k changed
// to value.
func changedConfigMaps(objects []client.Object, k int, value string) []client.Object {
	out := make([]client.Object, len(objects))
	for i, o := range objects {
		out[i] = o.DeepCopyObject().(client.Object)
		if i < k {
			out[i] = configMap(o.GetNamespace(), o.GetName(), map[string]string{"v": value}, nil)
		}
	}
	return out
}
