package servertest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

var (
	kept    = v1alpha1.RoleGroupRef{Role: "server", Group: "default"}
	retired = v1alpha1.RoleGroupRef{Role: "server", Group: "old"}
)

func newCleaner(t *testing.T, f *fixture, opts orphan.Options) (*orphan.Cleaner, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	if opts.Registerer == nil {
		opts.Registerer = reg
	}
	c, err := orphan.NewCleaner(f.c, f.c, opts)
	require.NoError(t, err)
	return c, reg
}

// snapshot describes a group's objects and its StatefulSet's replicas.
func (f *fixture) snapshot(ref v1alpha1.RoleGroupRef) string {
	present := f.present(ref)
	s := strings.Join(present, " ")
	if slices.Contains(present, "statefulset") {
		sts := f.statefulSet(ref)
		s += fmt.Sprintf(" (spec %d, status %d)", *sts.Spec.Replicas, sts.Status.Replicas)
	}
	return s
}

// drive runs passes, keeping the ledger as a reconciler would (pending
// groups stay, reclaimed ones leave), until nothing of ref is left and the
// pass no longer reports it pending. It returns the distinct snapshots of
// ref seen after each pass, in order, and whether a pass reported ref
// reclaimed.
func drive(t *testing.T, f *fixture, next func() *orphan.Cleaner, in orphan.Input, ref v1alpha1.RoleGroupRef) ([]string, bool) {
	t.Helper()
	history := []string{f.snapshot(ref)}
	reclaimed := false
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		res, err := next().Clean(testkit.Context(t), in)
		if err != nil {
			return "", false, err
		}
		in.Ledger = res.Prune(in.Ledger)
		if s := f.snapshot(ref); s != history[len(history)-1] {
			history = append(history, s)
		}
		reclaimed = reclaimed || slices.Contains(res.Reclaimed(), ref)
		done := !slices.Contains(res.Pending(), ref) && history[len(history)-1] == ""
		if !done {
			require.Contains(t, res.Pending(), ref, "result %+v, history %q", res, history)
			require.Positive(t, res.RequeueAfter, "a pending group asks to run again")
		}
		return strings.Join(history, " | "), done, nil
	}, 90*time.Second)
	require.NoError(t, err)
	return history, reclaimed
}

func TestRemovedGroupDrainsThenIsDeletedInOrder(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(kept, groupOptions{replicas: 1})
	f.applyGroup(retired, groupOptions{replicas: 2})
	f.waitReady(retired, 2)
	cleaner, reg := newCleaner(t, f, orphan.Options{})
	in := orphan.Input{Owner: f.cluster, Declared: []v1alpha1.RoleGroupRef{kept}, Ledger: ledgerOf(kept, retired)}

	history, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed, "the ledger entry is reported reclaimed once nothing is left")

	// The StatefulSet is scaled to zero in a pass of its own, before any
	// deletion; the drain's intermediate counts depend on how fast the pods
	// go, so they are left out of the order below.
	require.Contains(t, history[1], "pdb statefulset", "the first step deletes nothing")
	require.Contains(t, history[1], "(spec 0, ", "the first step scales to zero")
	var phases []string
	for _, s := range history {
		if strings.HasPrefix(s, "pdb statefulset") && strings.Contains(s, "(spec 0, ") {
			continue
		}
		phases = append(phases, s)
	}
	// Whenever the PDB is gone, the drain has finished.
	for _, s := range history {
		if !strings.HasPrefix(s, "pdb") && strings.Contains(s, "statefulset") {
			require.Contains(t, s, "(spec 0, status 0)", "nothing is deleted before the drain")
		}
	}
	want := []string{
		"pdb statefulset configmap service headless metrics (spec 2, status 2)",
		"statefulset configmap service headless metrics (spec 0, status 0)",
		"configmap service headless metrics",
		"service headless metrics",
		"headless metrics",
		"metrics",
		"",
	}
	if diff := cmp.Diff(want, phases); diff != "" {
		t.Errorf("teardown order (-want +got):\n%s\nfull history: %q", diff, history)
	}
	require.Equal(t, []string{"pdb", "statefulset", "configmap", "service", "headless", "metrics"}, f.present(kept), "the declared group is untouched")
	require.Equal(t, int32(1), *f.statefulSet(kept).Spec.Replicas)

	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(fmt.Sprintf(`
# HELP opkit_orphan_cleanup_pending Role groups removed from a cluster's spec whose resources are not yet fully reclaimed.
# TYPE opkit_orphan_cleanup_pending gauge
opkit_orphan_cleanup_pending{cluster="demo",kind="SampleCluster",namespace=%q} 0
`, f.ns)), orphan.MetricPending), "the gauge is written at zero once nothing is pending")
}

func TestRestartBetweenStepsResumes(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	f.waitReady(retired, 1)
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
	restarts := 0
	// A new Cleaner for every pass: all progress lives on the objects.
	history, reclaimed := drive(t, f, func() *orphan.Cleaner {
		restarts++
		c, _ := newCleaner(t, f, orphan.Options{})
		return c
	}, in, retired)
	require.Equal(t, "", history[len(history)-1])
	require.True(t, reclaimed)
	require.Greater(t, restarts, 6, "the teardown took one step per pass")
}

func TestWipedLedgerStillFindsLiveGroups(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	cleaner, _ := newCleaner(t, f, orphan.Options{})
	in := orphan.Input{Owner: f.cluster} // no ledger at all

	res, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending())
	require.False(t, res.Groups[0].InLedger, "the group is reported as found only live")
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.False(t, reclaimed, "a live-only group leaves the report once discovery finds nothing of it")

	// Without an owner UID there is no live discovery.
	g := newFixture(t, nil)
	g.applyGroup(retired, groupOptions{replicas: 1})
	anon := g.cluster.DeepCopy()
	anon.UID = ""
	res, err = cleaner.Clean(testkit.Context(t), orphan.Input{Owner: anon})
	require.NoError(t, err)
	require.Empty(t, res.Groups)
	require.Len(t, g.present(retired), 6)
}

func TestGracePeriodDelaysTheTeardown(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	clk := newFakeClock()
	cleaner, _ := newCleaner(t, f, orphan.Options{GracePeriod: time.Hour, Clock: clk})
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}

	res, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, time.Hour, res.RequeueAfter)
	require.Contains(t, f.statefulSet(retired).Annotations, v1alpha1.AnnotationPendingDeletion)

	clk.Step(40 * time.Minute)
	res, err = cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, 20*time.Minute, res.RequeueAfter, "the remaining grace feeds the requeue")
	require.Equal(t, 20*time.Minute, res.Groups[0].Remaining(clk.Now()))
	require.Equal(t, int32(1), *f.statefulSet(retired).Spec.Replicas, "nothing happens during the grace period")

	clk.Step(21 * time.Minute)
	_, err = cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, int32(0), *f.statefulSet(retired).Spec.Replicas, "after the grace period the group is scaled down")
}
