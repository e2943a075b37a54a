package servertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// planProof is a running operator whose writes are recorded at the
// transport, and one cluster resource it manages.
type planProof struct {
	t      *testing.T
	op     *operator
	c      client.Client
	writes *apicount.WriteLog
	key    client.ObjectKey
}

func newPlanProof(t *testing.T, cfg reconciler.Config[*sampleCluster], cr *sampleCluster) *planProof {
	t.Helper()
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	writes := apicount.NewWriteLog()
	op := startOperator(t, cp, ns, cfg, writes.WrapTransport)
	cr.Namespace = ns
	return &planProof{t: t, op: op, c: cp.Client, writes: writes, key: client.ObjectKeyFromObject(cr)}
}

// create creates cr and requires that the plan made before names the
// objects the passes then create.
func (f *planProof) create(cr *sampleCluster) {
	f.t.Helper()
	plan, err := f.plan(cr)
	if err != nil {
		f.t.Fatal(err)
	}
	if plan.Exists || !plan.HasChanges() {
		f.t.Fatalf("a resource not created yet plans as existing (%v) or without change", plan.Exists)
	}
	want := f.planned(plan)
	f.writes.Reset()
	if err := f.c.Create(f.t.Context(), cr); err != nil {
		f.t.Fatal(err)
	}
	f.waitApplied()
	if diff := cmp.Diff(f.written(), want); diff != "" {
		f.t.Errorf("writes of the creation (-written +planned):\n%s", diff)
	}
}

// plan plans desired and requires that it wrote nothing: every write it
// sent carries dryRun=All.
func (f *planProof) plan(desired *sampleCluster) (reconciler.Plan, error) {
	f.t.Helper()
	f.writes.Reset()
	plan, err := f.op.r.Plan(f.t.Context(), desired)
	for _, w := range objectWrites(f.writes.Writes()) {
		if w.DryRun != "All" {
			f.t.Fatalf("the plan sent a real %s of %s %s", w.Verb, w.Resource, w.Name)
		}
	}
	return plan, err
}

// live returns the cluster resource as stored.
func (f *planProof) live() *sampleCluster {
	f.t.Helper()
	cr := &sampleCluster{}
	if err := f.c.Get(f.t.Context(), f.key, cr); err != nil {
		f.t.Fatal(err)
	}
	return cr
}

// objectWrites drops the writes no plan covers: events, leases and the
// cluster resource's own status.
func objectWrites(writes []apicount.Write) []apicount.Write {
	return slices.DeleteFunc(writes, func(w apicount.Write) bool {
		return w.Resource == "events" || w.Resource == "leases" || w.Resource == "sampleclusters"
	})
}

// writeKind is what a write does to an object, in a plan's terms.
func writeKind(verb string) string {
	switch verb {
	case "patch", "update":
		return "update"
	}
	return verb
}

// planned returns the writes plan announces, "<resource> <name>" → the
// kinds of write in the order the passes make them.
func (f *planProof) planned(plan reconciler.Plan) map[string][]string {
	out := map[string][]string{}
	add := func(gk schema.GroupKind, name string, kinds ...string) {
		m, err := f.op.client.RESTMapper().RESTMapping(gk)
		if err != nil {
			f.t.Fatalf("mapping %s: %v", gk, err)
		}
		k := m.Resource.Resource + " " + name
		out[k] = append(out[k], kinds...)
	}
	for _, s := range plan.Scopes {
		for _, c := range s.Objects.Changes {
			gk := schema.GroupKind{Group: c.Object.Group, Kind: c.Object.Kind}
			switch c.Action {
			case apply.PlanCreate, apply.PlanDelete:
				add(gk, c.Object.Name, string(c.Action))
			case apply.PlanUpdate, apply.PlanOrphan, apply.PlanRelease:
				add(gk, c.Object.Name, "update")
			case apply.PlanRecreate:
				add(gk, c.Object.Name, "delete", "create")
			}
		}
	}
	for _, g := range plan.Retired {
		for _, a := range g.Actions {
			gk := schema.FromAPIVersionAndKind(a.Object.APIVersion, a.Object.Kind).GroupKind()
			if a.Type == orphan.ActionDeleted || a.Type == orphan.ActionDeletedAfterDrainTimeout {
				add(gk, a.Object.Name, "delete")
				continue
			}
			add(gk, a.Object.Name, "update")
		}
	}
	return out
}

// written returns the real object writes recorded, as planned does.
func (f *planProof) written() map[string][]string {
	out := map[string][]string{}
	for _, w := range objectWrites(f.writes.Writes()) {
		if w.DryRun != "" || w.Status >= 300 {
			continue
		}
		k := w.Resource + " " + w.Name
		out[k] = append(out[k], writeKind(w.Verb))
	}
	return out
}

// lastBody returns what the API server answered to the last real write
// of resource/name.
func (f *planProof) lastBody(resource, name string) *unstructured.Unstructured {
	f.t.Helper()
	var last []byte
	for _, w := range f.writes.Writes() {
		if w.Resource == resource && w.Name == name && w.DryRun == "" && w.Body != nil {
			last = w.Body
		}
	}
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(last, &u.Object); err != nil {
		f.t.Fatalf("the answer to the write of %s %s: %v", resource, name, err)
	}
	return u
}

// checkFields requires that each planned update changes the fields the
// real write changed.
func (f *planProof) checkFields(plan reconciler.Plan) {
	f.t.Helper()
	for _, s := range plan.Scopes {
		for _, c := range s.Objects.Changes {
			if c.Action != apply.PlanUpdate {
				continue
			}
			m, err := f.op.client.RESTMapper().RESTMapping(schema.GroupKind{Group: c.Object.Group, Kind: c.Object.Kind})
			if err != nil {
				f.t.Fatal(err)
			}
			written := apply.DiffFields(c.Live, f.lastBody(m.Resource.Resource, c.Object.Name))
			if diff := cmp.Diff(written, c.Fields); diff != "" {
				f.t.Errorf("fields of %s (-written +planned):\n%s", c.Object, diff)
			}
		}
	}
}

// waitApplied waits until the cluster resource's current generation is
// applied and ready.
func (f *planProof) waitApplied() {
	f.t.Helper()
	waitCurrentCondition(f.t, f.c, f.key, commonsv1alpha1.ConditionReconcileComplete, "True", "", 2*time.Minute)
}

// For each kind of change a user makes to a product cluster, the plan of
// the changed resource (as read from a file, before it is written) names
// the objects, the writes and the changed fields the next pass then
// makes, and sends no write that is not a dry run; a converged cluster
// plans to no change.
func TestPlanOfEachChangeIsWhatThePassWrites(t *testing.T) {
	cfg := baseConfig()
	cfg.Orphan.GracePeriod = time.Hour // the retirement's first step is its whole step in this test
	cfg.Dependencies = func(cr *sampleCluster) []reconciler.Dependency {
		if name := cr.Spec.Roles["server"].RoleGroups["a"].ConfigOverrides["server.properties"]["credentials"]; name != "" {
			return []reconciler.Dependency{{Kind: "Secret", Name: name, Field: "spec.roles.server.roleGroups.a.configOverrides"}}
		}
		return nil
	}
	cr := newCluster("", "plan", map[string]map[string]int32{"server": {"a": 1, "b": 1}})
	f := newPlanProof(t, cfg, cr)
	f.create(cr)
	credentials := func(name string) func(*sampleCluster) {
		return func(c *sampleCluster) {
			g := c.Spec.Roles["server"].RoleGroups["a"]
			g.ConfigOverrides = map[string]map[string]string{"server.properties": {"credentials": name}}
			c.Spec.Roles["server"].RoleGroups["a"] = g
		}
	}
	t.Run("a resource the operator does not manage", func(t *testing.T) {
		f.t = t
		elsewhere := newCluster("elsewhere", "plan", map[string]map[string]int32{"server": {"a": 1}})
		_, err := f.plan(elsewhere)
		if !errors.Is(err, failure.ErrInvalid) || !strings.Contains(err.Error(), "metadata.namespace") {
			t.Fatalf("the plan's error %v is not invalid input naming metadata.namespace", err)
		}
	})
	t.Run("refer to a Secret that does not exist", func(t *testing.T) {
		f.t = t
		desired := f.live()
		credentials("missing")(desired)
		plan, err := f.plan(desired)
		var missing *reconciler.MissingDependencyError
		if !errors.As(err, &missing) || missing.Name != "missing" {
			t.Fatalf("the plan's error %v does not name the missing Secret", err)
		}
		if c := meta.FindStatusCondition(plan.Conditions, commonsv1alpha1.ConditionDegraded); c == nil || c.Status != "True" {
			t.Errorf("the plan's Degraded condition %+v does not say the pass fails", c)
		}
	})
	steps := []struct {
		name   string
		change func(*sampleCluster)
	}{
		{"add a dependency Secret", func(c *sampleCluster) {
			secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: f.key.Namespace, Name: "plan-credentials"}}
			if err := f.c.Create(t.Context(), secret); client.IgnoreAlreadyExists(err) != nil {
				t.Fatal(err)
			}
			credentials("plan-credentials")(c)
		}},
		{"scale a role group", func(c *sampleCluster) { setReplicas(c, "server", "a", 2) }},
		{"change a config override", func(c *sampleCluster) {
			g := c.Spec.Roles["server"].RoleGroups["a"]
			g.ConfigOverrides = map[string]map[string]string{"server.properties": {"tick": "2000"}}
			c.Spec.Roles["server"].RoleGroups["a"] = g
		}},
		{"bump the product version", func(c *sampleCluster) {
			c.Spec.Image = &commonsv1alpha1.ImageSpec{ProductVersion: "1.1.0"}
		}},
		{"remove a role group", func(c *sampleCluster) { delete(c.Spec.Roles["server"].RoleGroups, "b") }},
	}
	// The conditions a plan names that the pass then sets as they are
	// (ReconcileComplete differs by design: a plan with writes takes the
	// cluster as rolling out).
	stable := []string{commonsv1alpha1.ConditionOrphanCleanupPending, commonsv1alpha1.ConditionDegraded, commonsv1alpha1.ConditionStopped}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			f.t = t
			converged, err := f.plan(f.live())
			if err != nil || converged.HasChanges() {
				t.Fatalf("the converged cluster plans changes (%v): %+v", err, f.planned(converged))
			}
			desired := f.live()
			step.change(desired)
			plan, err := f.plan(desired)
			if err != nil {
				t.Fatal(err)
			}
			want := f.planned(plan)
			if len(want) == 0 {
				t.Fatal("the change plans no write")
			}
			t.Logf("planned: %v; retired: %+v", want, plan.Retired)
			f.writes.Reset()
			if err := updateCluster(t, f.c, f.key, step.change); err != nil {
				t.Fatal(err)
			}
			f.waitApplied()
			if diff := cmp.Diff(f.written(), want); diff != "" {
				t.Errorf("writes (-written +planned):\n%s", diff)
			}
			f.checkFields(plan)
			live := f.live()
			for _, typ := range stable {
				want, got := meta.FindStatusCondition(plan.Conditions, typ), meta.FindStatusCondition(live.Status.Conditions, typ)
				if want == nil || got == nil || want.Status != got.Status || want.Reason != got.Reason {
					t.Errorf("condition %s: planned %+v, set %+v", typ, want, got)
				}
			}
		})
	}
}

// setReplicas sets the replicas of one role group.
func setReplicas(c *sampleCluster, role, group string, n int32) {
	g := c.Spec.Roles[role].RoleGroups[group]
	g.Replicas = ptr.To(n)
	c.Spec.Roles[role].RoleGroups[group] = g
}

// A plan asked for before the manager has started waits for the cache it
// reads from instead of failing on it, and one whose context ends first
// says that the cache never synced.
func TestPlanWaitsForTheManagersCache(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	r, mgr := newOperatorManager(t, cp.RESTConfig(), ns, baseConfig(), testkit.Logger(t), nil)
	cr := newCluster(ns, "early", map[string]map[string]int32{"server": {"a": 1}})

	short, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := r.Plan(short, cr); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cache") {
		t.Fatalf("a plan on a manager never started returned %v, not the cache's wait ending with the context", err)
	}

	type result struct {
		plan reconciler.Plan
		err  error
	}
	done := make(chan result, 1)
	go func() {
		plan, err := r.Plan(t.Context(), cr)
		done <- result{plan, err}
	}()
	testkit.RunManager(t, mgr)
	got := <-done
	if got.err != nil {
		t.Fatalf("a plan asked for before the manager started: %v", got.err)
	}
	if got.plan.Exists || !got.plan.HasChanges() {
		t.Errorf("the new resource plans as existing (%v) or without change", got.plan.Exists)
	}
}
