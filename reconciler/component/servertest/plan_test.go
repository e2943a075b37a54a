package servertest_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/reconciler/component"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// shopPlanProof is a running component operator whose writes are
// recorded at the transport, and one shop it manages.
type shopPlanProof struct {
	t      *testing.T
	op     *operator
	writes *apicount.WriteLog
	key    client.ObjectKey
}

func newShopPlanProof(t *testing.T, spec shop.ShopSpec) *shopPlanProof {
	t.Helper()
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	writes := apicount.NewWriteLog()
	op := startOperator(t, cp, ns, setup{config: func(cfg *rest.Config) { cfg.Wrap(writes.WrapTransport) }})
	newShop(t, cp.Client, ns, "front", spec)
	f := &shopPlanProof{t: t, op: op, writes: writes, key: client.ObjectKey{Namespace: ns, Name: "front"}}
	f.waitApplied()
	return f
}

// waitApplied waits until the shop's current generation is applied and
// every object ready.
func (f *shopPlanProof) waitApplied() {
	f.t.Helper()
	waitShop(f.t, f.op.c, f.key, 2*time.Minute, func(s *shop.Shop) bool {
		return s.Status.State == componentv1alpha1.StateReady && s.Status.ObservedGeneration == s.Generation && s.Status.AppliedGeneration == s.Generation
	})
}

// live returns the shop as stored.
func (f *shopPlanProof) live() *shop.Shop {
	f.t.Helper()
	s := &shop.Shop{}
	if err := f.op.c.Get(f.t.Context(), f.key, s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

// plan runs plan and requires that it wrote nothing: every write it sent
// carries dryRun=All.
func (f *shopPlanProof) plan(plan func() (component.Plan, error)) component.Plan {
	f.t.Helper()
	f.writes.Reset()
	p, err := plan()
	if err != nil {
		f.t.Fatal(err)
	}
	for _, w := range shopObjectWrites(f.writes.Writes()) {
		if w.DryRun != "All" {
			f.t.Fatalf("the plan sent a real %s of %s %s", w.Verb, w.Resource, w.Name)
		}
	}
	return p
}

// shopObjectWrites drops the writes no plan covers: events, the shop
// itself and its render record.
func shopObjectWrites(writes []apicount.Write) []apicount.Write {
	return slices.DeleteFunc(writes, func(w apicount.Write) bool {
		return w.Resource == "events" || w.Resource == "shops" || w.Resource == "secrets" && strings.Contains(w.Name, "-render-")
	})
}

// planned returns the writes plan announces, "<resource> <name>" → the
// kinds of write, a transient object's (a hook's) create followed by its
// delete.
func (f *shopPlanProof) planned(plan component.Plan) map[string][]string {
	out := map[string][]string{}
	for _, c := range plan.Objects.Changes {
		m, err := f.op.mgr.GetRESTMapper().RESTMapping(schema.GroupKind{Group: c.Object.Group, Kind: c.Object.Kind})
		if err != nil {
			f.t.Fatal(err)
		}
		k := m.Resource.Resource + " " + c.Object.Name
		switch c.Action {
		case apply.PlanCreate:
			out[k] = append(out[k], "create")
			if c.Transient {
				out[k] = append(out[k], "delete")
			}
		case apply.PlanDelete:
			out[k] = append(out[k], "delete")
		case apply.PlanUpdate, apply.PlanOrphan, apply.PlanRelease:
			out[k] = append(out[k], "update")
		case apply.PlanRecreate:
			out[k] = append(out[k], "delete", "create")
		}
	}
	return out
}

// written returns the real object writes recorded, as planned does, and
// the names of the deleted objects in the order of their deletes.
func (f *shopPlanProof) written() (map[string][]string, []string) {
	out := map[string][]string{}
	var deleted []string
	for _, w := range shopObjectWrites(f.writes.Writes()) {
		if w.DryRun != "" || w.Status >= 300 {
			continue
		}
		k := w.Resource + " " + w.Name
		verb := w.Verb
		if verb == "patch" {
			verb = "update"
		}
		if verb == "delete" {
			deleted = append(deleted, w.Name)
		}
		out[k] = append(out[k], verb)
	}
	return out, deleted
}

// checkFields requires that each planned update changes the fields the
// real write changed.
func (f *shopPlanProof) checkFields(plan component.Plan) {
	f.t.Helper()
	for _, c := range plan.Objects.Changes {
		if c.Action != apply.PlanUpdate {
			continue
		}
		m, err := f.op.mgr.GetRESTMapper().RESTMapping(schema.GroupKind{Group: c.Object.Group, Kind: c.Object.Kind})
		if err != nil {
			f.t.Fatal(err)
		}
		var last []byte
		for _, w := range f.writes.Writes() {
			if w.Resource == m.Resource.Resource && w.Name == c.Object.Name && w.DryRun == "" && w.Body != nil {
				last = w.Body
			}
		}
		body := &unstructured.Unstructured{}
		if err := json.Unmarshal(last, &body.Object); err != nil {
			f.t.Fatalf("the answer to the write of %s: %v", c.Object, err)
		}
		if diff := gocmp.Diff(apply.DiffFields(c.Live, body), c.Fields); diff != "" {
			f.t.Errorf("fields of %s (-written +planned):\n%s", c.Object, diff)
		}
	}
}

// For each kind of change to a component (a chart value, a value the
// kustomization renders too), the plan of the changed component, as read
// from a file before it is written, names the objects, the writes and the
// changed fields the passes then make, hooks included; a converged
// component plans to no change; the plan of its deletion names the
// deletes in the order they happen. No plan writes anything.
func TestShopPlanIsWhatThePassesWrite(t *testing.T) {
	f := newShopPlanProof(t, shop.ShopSpec{Message: "welcome", Replicas: 1})
	steps := []struct {
		name   string
		change func(*shop.Shop)
	}{
		{"change a chart value", func(s *shop.Shop) { s.Spec.Replicas = 2 }},
		{"change a value the kustomization renders", func(s *shop.Shop) { s.Spec.Message = "sale" }},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			f.t = t
			if p := f.plan(func() (component.Plan, error) { return f.op.r.Plan(t.Context(), f.live()) }); p.HasChanges() || p.State != componentv1alpha1.StateReady {
				t.Fatalf("the converged shop plans changes (state %s: %s): %v", p.State, p.Ready.Message, f.planned(p))
			}
			desired := f.live()
			step.change(desired)
			plan := f.plan(func() (component.Plan, error) { return f.op.r.Plan(t.Context(), desired) })
			want := f.planned(plan)
			t.Logf("planned: %v", want)
			if !plan.NewRevision || plan.State != componentv1alpha1.StateProcessing || len(want) == 0 {
				t.Fatalf("the change plans no new revision or no write (state %s): %v", plan.State, want)
			}
			f.writes.Reset()
			if err := updateShop(t, f.op.c, f.key, step.change); err != nil {
				t.Fatal(err)
			}
			f.waitApplied()
			got, _ := f.written()
			if diff := gocmp.Diff(got, want); diff != "" {
				t.Errorf("writes (-written +planned):\n%s", diff)
			}
			f.checkFields(plan)
		})
	}
	t.Run("a component the operator does not manage", func(t *testing.T) {
		elsewhere := &shop.Shop{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "front"}}
		_, err := f.op.r.Plan(t.Context(), elsewhere)
		if !errors.Is(err, failure.ErrInvalid) || !strings.Contains(err.Error(), "metadata.namespace") {
			t.Fatalf("the plan's error %v is not invalid input naming metadata.namespace", err)
		}
	})
	t.Run("delete", func(t *testing.T) {
		f.t = t
		plan := f.plan(func() (component.Plan, error) { return f.op.r.PlanDelete(t.Context(), f.live()) })
		want := f.planned(plan)
		wave := map[string]int{}
		for _, c := range plan.Objects.Changes {
			wave[c.Object.Name] = c.Wave
		}
		f.writes.Reset()
		if err := f.op.c.Delete(t.Context(), f.live()); err != nil {
			t.Fatal(err)
		}
		if _, err := testkit.WaitFor(t.Context(), func(_ context.Context) (bool, bool, error) {
			gone := !get(t, f.op.c, f.key.Namespace, f.key.Name, &shop.Shop{})
			return gone, gone, nil
		}, time.Minute); err != nil {
			t.Fatalf("shop not deleted: %v", err)
		}
		got, deleted := f.written()
		if diff := gocmp.Diff(got, want); diff != "" {
			t.Errorf("writes (-written +planned):\n%s", diff)
		}
		// Within a wave the deletes run at once; the waves follow each
		// other as planned.
		if !slices.IsSortedFunc(deleted, func(a, b string) int { return cmp.Compare(wave[a], wave[b]) }) {
			t.Errorf("deleted in the order %v, across the planned waves %v", deleted, wave)
		}
		if want := []int{0, 1}; !slices.Equal(slices.Compact(slices.Sorted(maps.Values(wave))), want) {
			t.Errorf("planned delete waves %v, want %v", wave, want)
		}
	})
}
