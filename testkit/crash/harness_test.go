package crash_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/crash"
)

func newParent(t *testing.T, ns string) {
	t.Helper()
	cp := env.Require(t)
	require.NoError(t, cp.Client.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "parent"}}))
}

// The kill write reaches the server, its answer does not reach the
// operator, and nothing the operator sends afterwards reaches the server.
func TestKillWriteReachesTheServerAndNothingAfter(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: childOperator(t, ns)})
	require.NoError(t, err)
	newParent(t, ns)

	run := h.Start(3)
	select {
	case <-run.Killed():
	case <-time.After(time.Minute):
		t.Fatal("the run was not killed at its third write")
	}
	require.NoError(t, run.Stop())
	<-run.Exited()

	want := []crash.Write{
		{N: 1, Verb: "create", Resource: "configmaps", Namespace: ns, Name: "child-0"},
		{N: 2, Verb: "create", Resource: "configmaps", Namespace: ns, Name: "child-1"},
		{N: 3, Verb: "create", Resource: "configmaps", Namespace: ns, Name: "child-2"},
	}
	if diff := cmp.Diff(want, run.Writes(), cmpopts.IgnoreFields(crash.Write{}, "At")); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	// The operator, told child-2's create failed, retried it in vain:
	// the server holds exactly the three creates that went out.
	names, err := childNames(t.Context(), cp.Client, ns)
	require.NoError(t, err)
	require.Equal(t, []string{"child-0", "child-1", "child-2"}, names)
}

// For every kill point of a cold converge, a restarted operator converges
// to the uninterrupted run's state; the loop ends at the first k the run
// never reaches.
func TestRecoverAtEveryWrite(t *testing.T) {
	cp := env.Require(t)
	for k := 1; ; k++ {
		ns := testkit.Namespace(t, cp.Client)
		h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: childOperator(t, ns)})
		require.NoError(t, err)
		newParent(t, ns)
		res, err := h.Recover(t.Context(), k, converged(cp.Client, ns), time.Minute)
		require.NoError(t, err, "k=%d", k)
		if !res.Killed {
			require.Equal(t, children+2, k, "the uninterrupted run makes five writes, so k=6 is the first never reached")
			require.Len(t, res.Before, children+1)
			return
		}
		require.Len(t, res.Before, k, "killed exactly at write %d", k)
		if k < children+1 {
			require.NotEmpty(t, res.After, "k=%d: the restarted run finished the work", k)
		} else {
			require.Empty(t, res.After, "killed at its last write, the run left nothing to do")
		}
		names, err := childNames(t.Context(), cp.Client, ns)
		require.NoError(t, err)
		require.Equal(t, []string{"child-0", "child-1", "child-2", "child-3"}, names, "k=%d", k)
	}
}

func TestKillStopsARunningOperator(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	h, err := crash.New(crash.Options{Config: cp.RESTConfig(), Operator: childOperator(t, ns)})
	require.NoError(t, err)
	run := h.Start(0)
	newParent(t, ns)
	_, err = testkit.WaitFor(t.Context(), converged(cp.Client, ns), time.Minute)
	require.NoError(t, err)
	require.NoError(t, run.Kill())
	require.True(t, run.WasKilled())
	select {
	case <-run.Exited():
	default:
		t.Fatal("Kill returned before the operator did")
	}
}

func TestOptionsAreChecked(t *testing.T) {
	_, err := crash.New(crash.Options{StopTimeout: -time.Second})
	require.Error(t, err)
	for _, want := range []string{"Config is required", "Operator is required", "StopTimeout -1s is negative"} {
		require.ErrorContains(t, err, want)
	}
	h, err := crash.New(crash.Options{Config: env.Require(t).RESTConfig(), Operator: func(context.Context, *rest.Config) error { return nil }})
	require.NoError(t, err)
	_, err = h.Recover(t.Context(), 0, nil, time.Second)
	require.ErrorContains(t, err, "kill point 0")
}

// An operator that returns on its own is started again with Restart, and
// each exit is reported; a stop ends the run for good.
func TestRestartAfterExit(t *testing.T) {
	var starts atomic.Int32
	h, err := crash.New(crash.Options{
		Config:       env.Require(t).RESTConfig(),
		Restart:      true,
		RestartDelay: time.Millisecond,
		Operator: func(ctx context.Context, _ *rest.Config) error {
			if n := starts.Add(1); n <= 2 {
				return fmt.Errorf("start %d failed", n)
			}
			<-ctx.Done()
			return nil
		},
	})
	require.NoError(t, err)
	run := h.Start(0)
	_, err = testkit.WaitFor(t.Context(), func(context.Context) (int32, bool, error) {
		n := starts.Load()
		return n, n == 3, nil
	}, time.Minute)
	require.NoError(t, err)
	require.NoError(t, run.Stop())
	require.Equal(t, []string{"start 1 failed", "start 2 failed"}, errorStrings(run.Exits()))
	require.Equal(t, int32(3), starts.Load(), "a stopped run is not restarted")
}

func errorStrings(errs []error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}
