package e2e_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
	"github.com/opkit-dev/opkit/testkit/crash"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// workload is an operator and the custom resources it reconciles, as the
// fault scenarios run them: the product reconciler with its clusters, the
// component reconciler with its bundles.
type workload struct {
	// what names the resources in messages: "clusters", "bundles".
	what string
	// operator is the operator process.
	operator func(t testing.TB, ns string) func(ctx context.Context, cfg *rest.Config) error
	// resource returns the i-th custom resource of ns.
	resource func(ns string, i int) client.Object
	// foreign returns someone else's objects to put in the operator's way
	// before the resources exist; they must never be written.
	foreign func(ns string) []*corev1.ConfigMap
	// settled is done when the n resources of ns are where the scenario
	// leaves them.
	settled func(c client.Client, ns string, n int) testkit.Condition[string]
	// capture captures the end state.
	capture capturer
	// problems checks the inventories against the live objects.
	problems func(ctx context.Context, c client.Reader, ns string) ([]string, error)
	// failures says what failures a resource shows a user.
	failures failures
	// prepare readies a namespace before the run (release finalizers at
	// its end); nil means nothing to do.
	prepare func(t testing.TB, c client.Client, ns string)
}

// outcome is what a workload run left and did.
type outcome struct {
	ns       string
	state    endState
	elapsed  time.Duration
	writes   []crash.Write
	failures []string
	problems []string
	// exits are why the operator exited on its own and was restarted.
	exits []error
}

// run runs the workload once in a new namespace: foreign objects, n
// resources, an operator whose requests go through inj (none when nil).
// It waits until the resources settled, checks that the foreign objects
// were neither written nor deleted (nor even sent a write), and captures
// the end state and the inventories' problems.
func (w workload) run(t testing.TB, cp *controlplane.ControlPlane, n int, inj *faults.Injector, timeout time.Duration) outcome {
	t.Helper()
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	out := outcome{ns: ns}
	if w.prepare != nil {
		w.prepare(t, cp.Client, ns)
	}
	strangers := w.foreign(ns)
	for _, o := range strangers {
		if err := cp.Client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	shown := recordFailures(t, cp.Client, ns, w.capture.owners, w.failures)

	cfg := cp.RESTConfig()
	if inj != nil {
		cfg.Wrap(inj.WrapTransport)
	}
	// An operator that fails to start while the API server errs exits;
	// the kubelet would start it again, and so does the harness.
	h, err := crash.New(crash.Options{Config: cfg, Operator: w.operator(t, ns), Restart: true})
	if err != nil {
		t.Fatal(err)
	}
	run := h.Start(0)
	t.Cleanup(func() {
		if err := run.Stop(); err != nil {
			t.Errorf("operator: %v", err)
		}
	})

	start := time.Now()
	for i := range n {
		if err := cp.Client.Create(ctx, w.resource(ns, i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := testkit.WaitFor(ctx, w.settled(cp.Client, ns, n), timeout); err != nil {
		t.Fatalf("the %s did not settle: %v", w.what, err)
	}
	out.elapsed = time.Since(start)

	out.state = stableState(t, cp.Client, ns, w.capture)
	if out.problems, err = w.problems(ctx, cp.Client, ns); err != nil {
		t.Fatal(err)
	}
	for _, want := range strangers {
		got := &corev1.ConfigMap{}
		if err := cp.Client.Get(ctx, client.ObjectKeyFromObject(want), got); err != nil {
			t.Errorf("foreign ConfigMap %s: %v", want.Name, err)
		} else if got.ResourceVersion != want.ResourceVersion {
			t.Errorf("foreign ConfigMap %s was written: resourceVersion %s, created as %s", want.Name, got.ResourceVersion, want.ResourceVersion)
		}
	}
	if err := run.Stop(); err != nil {
		t.Errorf("operator: %v", err)
	}
	out.writes = run.Writes()
	out.exits = run.Exits()
	for _, w := range out.writes {
		for _, o := range strangers {
			// A create of a name that exists fails without touching the
			// object (the operator's cache holds only its own objects,
			// so it may try); anything else would touch it.
			if w.Name == o.Name && w.Resource == "configmaps" && w.Verb != "create" {
				t.Errorf("the operator sent %s to foreign ConfigMap %s", w.Verb, o.Name)
			}
		}
	}
	out.failures = shown.Seen()
	return out
}

// stableState captures ns until two captures in a row agree, so that a
// write still in flight when the resources settled cannot make two runs
// differ by timing alone.
func stableState(t testing.TB, c client.Reader, ns string, cp capturer) endState {
	t.Helper()
	var last endState
	got, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (endState, bool, error) {
		s, err := cp.capture(ctx, c, ns)
		if err != nil {
			return nil, false, err
		}
		same := last != nil && equalStates(last, s)
		last = s
		return s, same, nil
	}, time.Minute)
	if err != nil {
		t.Fatalf("the end state did not hold still: %v", err)
	}
	return got
}
