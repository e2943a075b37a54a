package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// crashTimeout bounds each wait of a crash scenario.
const crashTimeout = 2 * time.Minute

// crashScenario is one operator life to interrupt at every write: prepare
// sets up the namespace (with an operator of its own where it needs one),
// then the harness's runs do the work, and done says when it is done.
type crashScenario struct {
	// operator is the operator process.
	operator func(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error
	// prepare readies ns before the interrupted work starts.
	prepare func(t *testing.T, cp *controlplane.ControlPlane, ns string)
	// done is true once the work is done in ns.
	done func(c client.Client, ns string) testkit.Condition[string]
	// capture captures the end state.
	capture capturer
	// problems checks the inventories against the live objects.
	problems func(ctx context.Context, c client.Reader, ns string) ([]string, error)
	// check tests the end state beyond the comparison with the
	// uninterrupted run's.
	check func(t *testing.T, c client.Client, ns string)
}

// productCrash is a crash scenario of the product operator with the
// configuration config changes (nil: as is).
func productCrash(config func(*reconciler.Config[*sampleCluster])) crashScenario {
	return crashScenario{
		operator: func(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error {
			return productOperator(t, ns, operatorOptions{config: config})
		},
		capture:  productCapturer,
		problems: products.problems,
	}
}

// crashOutcome is what one interrupted (or not) life left.
type crashOutcome struct {
	res   crash.Result
	state endState
}

// run prepares a namespace and runs the work killed at write k (never
// with k 0), then captures the end state.
func (s crashScenario) run(t *testing.T, cp *controlplane.ControlPlane, k int) crashOutcome {
	t.Helper()
	ns := testkit.Namespace(t, cp.Client)
	s.prepare(t, cp, ns)
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: s.operator(t, ns)})
	if err != nil {
		t.Fatal(err)
	}
	var out crashOutcome
	if k == 0 {
		run := h.Start(0)
		_, err = testkit.WaitFor(t.Context(), s.done(cp.Client, ns), crashTimeout)
		if serr := run.Stop(); serr != nil {
			t.Errorf("operator: %v", serr)
		}
		out.res = crash.Result{Before: run.Writes()}
	} else {
		out.res, err = h.Recover(t.Context(), k, s.done(cp.Client, ns), crashTimeout)
	}
	if err != nil {
		t.Fatalf("kill at write %d: %v\nwrites before the kill:\n%swrites after:\n%s%s", k, err,
			describeWrites(out.res.Before), describeWrites(out.res.After), describeWorkloads(context.Background(), cp.Client, ns))
	}
	out.state = stableState(t, cp.Client, ns, s.capture)
	problems, err := s.problems(t.Context(), cp.Client, ns)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("kill at write %d: %s", k, p)
	}
	if s.check != nil {
		s.check(t, cp.Client, ns)
	}
	return out
}

// everyWrite runs the scenario uninterrupted, then once for every write
// the uninterrupted run made, killed right after that write, and compares
// each end state with the uninterrupted one. The runs after the reference
// go two at a time.
func (s crashScenario) everyWrite(t *testing.T, cp *controlplane.ControlPlane) {
	ref := s.run(t, cp, 0)
	n := len(ref.res.Before)
	if n == 0 {
		t.Fatal("the uninterrupted run made no write")
	}
	t.Logf("the uninterrupted run made %d writes:\n%s", n, describeWrites(ref.res.Before))
	var mu sync.Mutex
	var unreached []int
	t.Run("kills", func(t *testing.T) {
		for k := 1; k <= n; k++ {
			t.Run(fmt.Sprintf("k=%02d", k), func(t *testing.T) {
				t.Parallel()
				got := s.run(t, cp, k)
				if !got.res.Killed {
					// the run happened to converge in fewer writes
					mu.Lock()
					unreached = append(unreached, k)
					mu.Unlock()
				}
				if diff := diffStates(ref.state, got.state); diff != "" {
					t.Errorf("killed after write %d (%s), the end state differs from the uninterrupted run's (-uninterrupted +recovered):\n%s",
						k, describeKill(got.res.Before, k), diff)
				}
			})
		}
	})
	if len(unreached) > n/4 {
		t.Errorf("%d of %d kill points were never reached: %v", len(unreached), n, unreached)
	}
}

// describeWrites lists writes one per line.
func describeWrites(ws []crash.Write) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "  %2d %s %s %s\n", w.N, w.Verb, w.Resource, w.Name)
	}
	return b.String()
}

// describeKill names the write a run was killed after.
func describeKill(ws []crash.Write, k int) string {
	if k < 1 || k > len(ws) {
		return "not reached"
	}
	w := ws[k-1]
	return fmt.Sprintf("%s %s %s", w.Verb, w.Resource, w.Name)
}

// A product cluster's cold converge, killed after any of its writes,
// converges after a restart to the uninterrupted run's end state, with
// every object in its inventory.
func TestProductCrashAtEveryWrite(t *testing.T) {
	cp := env.Require(t)
	s := productCrash(nil)
	s.prepare = func(t *testing.T, cp *controlplane.ControlPlane, ns string) {
		if err := cp.Client.Create(t.Context(), newCluster(ns, clusterName(0), productShape)); err != nil {
			t.Fatal(err)
		}
	}
	s.done = clusterSettled
	s.everyWrite(t, cp)
}

// clusterSettled is done when the first cluster of ns settled.
func clusterSettled(c client.Client, ns string) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		cr := &sampleCluster{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: clusterName(0)}, cr); err != nil {
			return "", false, err
		}
		ok, why := settled(cr)
		return why, ok, nil
	}
}

// retireShape is the cluster before a role group is removed: server/old
// goes.
var retireShape = map[string]map[string]int32{"server": {"default": 1, "old": 1}, "gateway": {"default": 1}}

// A role group's retirement, killed after any of its writes (marks,
// scale-down, deletes, status), completes after a restart: the group is
// gone from the cluster and the ledger, nothing is left marked or scaled
// down, and the end state equals the uninterrupted retirement's.
func TestProductRetireCrashAtEveryWrite(t *testing.T) {
	cp := env.Require(t)
	fastOrphans := func(c *reconciler.Config[*sampleCluster]) { c.Orphan.DrainPollInterval = 500 * time.Millisecond }
	s := productCrash(fastOrphans)
	s.prepare = func(t *testing.T, cp *controlplane.ControlPlane, ns string) {
		convergeThenRetire(t, cp, ns, fastOrphans)
	}
	s.done = retired
	s.check = noRetirementLeft
	s.everyWrite(t, cp)
}

// retired is done when the first cluster of ns settled with no cleanup
// pending and server/old gone from its ledger.
func retired(c client.Client, ns string) testkit.Condition[string] {
	return func(ctx context.Context) (string, bool, error) {
		cr := &sampleCluster{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: clusterName(0)}, cr); err != nil {
			return "", false, err
		}
		if ok, why := settled(cr); !ok {
			return why, false, nil
		}
		if c := conditionOf(cr, commonsv1alpha1.ConditionOrphanCleanupPending); c == nil || c.Status != "False" {
			return fmt.Sprintf("cleanup pending: %+v", c), false, nil
		}
		for _, g := range cr.Status.RoleGroups {
			if g.Group == "old" {
				return "server/old still in the ledger", false, nil
			}
		}
		return "retired", true, nil
	}
}

// convergeThenRetire converges a cluster of retireShape with an operator
// of its own, stops it, and removes server/old from the spec.
func convergeThenRetire(t *testing.T, cp *controlplane.ControlPlane, ns string, config func(*reconciler.Config[*sampleCluster])) {
	t.Helper()
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: productOperator(t, ns, operatorOptions{config: config})})
	if err != nil {
		t.Fatal(err)
	}
	run := h.Start(0)
	cr := newCluster(ns, clusterName(0), retireShape)
	if err := cp.Client.Create(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
	_, err = testkit.WaitFor(t.Context(), clusterSettled(cp.Client, ns), crashTimeout)
	if serr := run.Stop(); serr != nil {
		t.Errorf("operator: %v", serr)
	}
	if err != nil {
		t.Fatalf("the cluster did not settle before the retirement: %v", err)
	}
	if err := cp.Client.Get(t.Context(), client.ObjectKeyFromObject(cr), cr); err != nil {
		t.Fatal(err)
	}
	delete(cr.Spec.Roles["server"].RoleGroups, "old")
	if err := cp.Client.Update(t.Context(), cr); err != nil {
		t.Fatal(err)
	}
}

// noRetirementLeft checks that server/old is gone entirely and that no
// remaining object is marked for deletion or draining.
func noRetirementLeft(t *testing.T, c client.Client, ns string) {
	t.Helper()
	cr := &sampleCluster{}
	if err := c.Get(t.Context(), types.NamespacedName{Namespace: ns, Name: clusterName(0)}, cr); err != nil {
		t.Fatal(err)
	}
	for _, g := range cr.Status.RoleGroups {
		if g.Role == "server" && g.Group == "old" {
			t.Errorf("server/old is still in the ledger: %+v", g)
		}
	}
	for _, gvk := range productKinds {
		objs, err := list(t.Context(), c, ns, gvk)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			if o.GetLabels()[commonsv1alpha1.LabelRoleGroup] == "old" {
				t.Errorf("%s %s of the retired group is left", gvk.Kind, o.GetName())
			}
			for _, a := range []string{commonsv1alpha1.AnnotationPendingDeletion, commonsv1alpha1.AnnotationDrainStarted} {
				if _, marked := o.GetAnnotations()[a]; marked {
					t.Errorf("%s %s is left with %s", gvk.Kind, o.GetName(), a)
				}
			}
		}
	}
}
