package servertest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/api/failure"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/faults"
)

// faultyCleaner returns a Cleaner whose client (not its uncached reader)
// injects the fault of rule, and the injector.
func faultyCleaner(t *testing.T, rule faults.Rule, opts orphan.Options) (*orphan.Cleaner, *faults.Injector, *prometheus.Registry) {
	t.Helper()
	inj, err := faults.New(faults.Options{Rules: []faults.Rule{rule}})
	require.NoError(t, err)
	cp := env.Require(t)
	reg := prometheus.NewRegistry()
	opts.Registerer = reg
	cleaner, err := orphan.NewCleaner(inj.Client(cp.Client), cp.Client, opts)
	require.NoError(t, err)
	return cleaner, inj, reg
}

func TestRateLimitStopsThePassAndLosesNothing(t *testing.T) {
	f := newFixture(t, nil)
	second := v1alpha1.RoleGroupRef{Role: "server", Group: "older"}
	f.applyGroup(retired, groupOptions{replicas: 1})
	f.applyGroup(second, groupOptions{replicas: 1})
	cleaner, inj, reg := faultyCleaner(t, faults.Rule{
		Verbs: []string{"update"}, Resources: []string{"statefulsets.apps"}, Fault: faults.TooManyRequests, Rate: 1, RetryAfter: 3 * time.Second,
	}, orphan.Options{MaxConcurrentGroups: 1})
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired, second)}

	res, err := cleaner.Clean(testkit.Context(t), in)
	require.ErrorIs(t, err, failure.ErrRateLimited)
	require.Equal(t, failure.ClassRateLimited, failure.ClassOf(err))
	require.Equal(t, 3*time.Second, failure.Delay(err), "the server's Retry-After")
	require.True(t, apierrors.IsTooManyRequests(err), "the API error stays in the chain: %v", err)
	require.Equal(t, 1, inj.Total(), "no further group is started after the 429")
	require.Len(t, res.Groups, 1, "the report holds the group the pass reached")
	require.Equal(t, retired, res.Groups[0].RoleGroup)
	require.Equal(t, orphan.StageScalingDown, res.Groups[0].Stage)
	require.ErrorIs(t, res.Groups[0].Err, failure.ErrRateLimited)
	require.Equal(t, int32(1), *f.statefulSet(retired).Spec.Replicas)
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(fmt.Sprintf(`
# HELP opkit_orphan_cleanup_pending Role groups removed from a cluster's spec whose resources are not yet fully reclaimed.
# TYPE opkit_orphan_cleanup_pending gauge
opkit_orphan_cleanup_pending{cluster="demo",kind="SampleCluster",namespace=%q} 2
`, f.ns)), orphan.MetricPending), "the gauge is written on a pass stopped by a rate limit")

	inj.SetEnabled(false)
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed)
}

func TestFailuresNameKindsAndKeepTheirClass(t *testing.T) {
	tests := []struct {
		name  string
		rule  faults.Rule
		opts  orphan.Options
		want  string
		class error
		is    func(error) bool
	}{
		{
			name:  "delete refused",
			rule:  faults.Rule{Verbs: []string{"delete"}, Resources: []string{"poddisruptionbudgets.policy"}, Fault: faults.InternalError, Rate: 1},
			want:  "role group server/old: deleting PodDisruptionBudget demo-server-old: ",
			class: failure.ErrRetriable,
			is:    apierrors.IsInternalError,
		},
		{
			name:  "mark refused",
			rule:  faults.Rule{Verbs: []string{"patch"}, Resources: []string{"statefulsets.apps"}, Fault: faults.ServiceUnavailable, Rate: 1},
			opts:  orphan.Options{GracePeriod: time.Minute},
			want:  "role group server/old: marking StatefulSet demo-server-old: ",
			class: failure.ErrRetriable,
			is:    apierrors.IsServiceUnavailable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.applyGroup(retired, groupOptions{replicas: 0})
			cleaner, _, _ := faultyCleaner(t, tt.rule, tt.opts)
			in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
			// The zero-replica group reaches its PDB once the StatefulSet
			// controller has reported it drained.
			err, waitErr := testkit.WaitFor(t.Context(), func(ctx context.Context) (error, bool, error) {
				_, err := cleaner.Clean(testkit.Context(t), in)
				return err, err != nil, nil
			}, 30*time.Second)
			require.NoError(t, waitErr)
			require.True(t, strings.HasPrefix(err.Error(), tt.want), "got %q", err)
			require.NotContains(t, err.Error(), "v1.", "no Go type names")
			require.ErrorIs(t, err, tt.class)
			require.True(t, tt.is(err), "the API error stays in the chain: %v", err)
		})
	}
}

func TestInvalidInputBlamesTheOperator(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	cleaner, _ := newCleaner(t, f, orphan.Options{})
	kindless := &unstructured.Unstructured{}
	kindless.SetNamespace(f.ns)
	kindless.SetName("demo")
	unnamed := f.cluster.DeepCopy()
	unnamed.ObjectMeta = metav1.ObjectMeta{Namespace: f.ns}

	for name, owner := range map[string]client.Object{"no owner": nil, "no kind": kindless, "no name": unnamed} {
		t.Run(name, func(t *testing.T) {
			_, err := cleaner.Clean(testkit.Context(t), orphan.Input{Owner: owner, Ledger: ledgerOf(retired)})
			require.ErrorIs(t, err, failure.ErrInvalid)
			require.Equal(t, failure.AuthorOperator, failure.AuthorOf(err))
			require.Equal(t, "orphan.Input.Owner", failure.FieldOf(err))
		})
	}
	require.Equal(t, int32(1), *f.statefulSet(retired).Spec.Replicas, "an invalid owner touches nothing")

	t.Run("a bad ledger entry fails only itself", func(t *testing.T) {
		in := orphan.Input{Owner: f.cluster, Ledger: append(ledgerOf(v1alpha1.RoleGroupRef{Role: "server"}), ledgerOf(retired)...)}
		res, err := cleaner.Clean(testkit.Context(t), in)
		require.ErrorIs(t, err, failure.ErrInvalid)
		require.Equal(t, "orphan.Input.Ledger[0]", failure.FieldOf(err))
		var joined interface{ Unwrap() []error }
		require.True(t, errors.As(err, &joined))
		require.Len(t, joined.Unwrap(), 1, "the only error is the bad entry's")
		require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending())
		require.Equal(t, orphan.StageScalingDown, res.Groups[0].Stage, "the valid group still advances")
	})
}
