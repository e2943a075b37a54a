package e2e_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/crash"
)

// restartEnv is a control plane of its own for the API server restart, so
// the restart cannot disturb the other scenarios.
var restartEnv = &testkit.Env{Options: env.Options}

// The API server is killed and restarted (etcd keeps the data) while the
// operator is in the middle of its first passes: the same operator
// process, never restarted, converges every cluster, and later spec
// changes still reach it (its watches came back).
func TestOperatorRecoversFromAPIServerRestart(t *testing.T) {
	cp := restartEnv.Require(t)
	t.Cleanup(func() {
		if err := restartEnv.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	ctx := t.Context()
	ns := testkit.Namespace(t, cp.Client)
	const n = 3
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: productOperator(t, ns, operatorOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	run := h.Start(0)
	t.Cleanup(func() {
		if err := run.Stop(); err != nil {
			t.Errorf("operator: %v", err)
		}
	})
	for i := range n {
		if err := cp.Client.Create(ctx, newCluster(ns, clusterName(i), productShape)); err != nil {
			t.Fatal(err)
		}
	}
	// mid-pass: the operator has started writing, and is not done
	if _, err := testkit.WaitFor(ctx, func(context.Context) (int, bool, error) {
		n := len(run.Writes())
		return n, n >= 3, nil
	}, time.Minute); err != nil {
		t.Fatalf("the operator did not start writing: %v", err)
	}
	before := len(run.Writes())
	if err := cp.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("restarted the API server after %d writes", before)

	if _, err := testkit.WaitFor(ctx, allClustersSettled(cp.Client, ns, n), 3*time.Minute); err != nil {
		t.Fatalf("the clusters did not settle after the restart: %v\n%s", err, describeWorkloads(context.Background(), cp.Client, ns))
	}
	select {
	case <-run.Exited():
		t.Fatal("the operator exited after the API server restart")
	default:
	}

	// A change after the restart reaches the operator through its watches.
	cr := &sampleCluster{}
	if err := cp.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: clusterName(1)}, cr); err != nil {
		t.Fatal(err)
	}
	g := cr.Spec.Roles["server"].RoleGroups["default"]
	g.Replicas = ptr.To[int32](2)
	cr.Spec.Roles["server"].RoleGroups["default"] = g
	if err := cp.Client.Update(ctx, cr); err != nil {
		t.Fatal(err)
	}
	if _, err := testkit.WaitFor(ctx, allClustersSettled(cp.Client, ns, n), 2*time.Minute); err != nil {
		t.Fatalf("a spec change after the restart did not converge: %v", err)
	}
	problems, err := inventoryProblems(ctx, cp.Client, ns, productName)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(run.Writes()) <= before {
		t.Error("the operator wrote nothing after the restart")
	}
}
