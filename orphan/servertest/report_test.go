package servertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

// logLines collects the log lines written through a context's logger.
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
}

func (l *logLines) context(ctx context.Context) context.Context {
	sink := funcr.NewJSON(func(obj string) {
		var line map[string]any
		if err := json.Unmarshal([]byte(obj), &line); err == nil {
			l.mu.Lock()
			l.lines = append(l.lines, line)
			l.mu.Unlock()
		}
	}, funcr.Options{Verbosity: 1})
	return logr.NewContext(ctx, sink)
}

// transitions returns "<group>: <msg> <kind>" for the info lines of
// verbosity 0, in order.
func (l *logLines) transitions(group string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if line["group"] == group && line["level"] == float64(0) {
			s := fmt.Sprint(line["msg"])
			if kind, ok := line["kind"]; ok {
				s += fmt.Sprint(" ", kind)
			}
			out = append(out, s)
		}
	}
	return out
}

func TestReportFollowsTheTeardown(t *testing.T) {
	f := newFixture(t, nil)
	stray := v1alpha1.RoleGroupRef{Role: "server", Group: "stray"} // found live, not in the ledger
	f.applyGroup(stray, groupOptions{replicas: 0})
	f.applyGroup(retired, groupOptions{replicas: 1})
	f.waitReady(retired, 1)
	clk := newFakeClock()
	cleaner, _ := newCleaner(t, f, orphan.Options{Clock: clk, GracePeriod: time.Minute})
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
	logs := &logLines{}
	stsRef := func(ref v1alpha1.RoleGroupRef) corev1.ObjectReference {
		sts := f.statefulSet(ref)
		return corev1.ObjectReference{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: f.ns, Name: sts.Name, UID: sts.UID}
	}
	marked := func(ref v1alpha1.RoleGroupRef) []orphan.Action {
		var cm corev1.ConfigMap
		require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: f.scope(ref).ResourceName()}, &cm))
		return []orphan.Action{
			{Type: orphan.ActionMarked, RoleGroup: ref, Object: stsRef(ref)},
			{Type: orphan.ActionMarked, RoleGroup: ref, Object: corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: f.ns, Name: cm.Name, UID: cm.UID}},
		}
	}

	res, err := cleaner.Clean(logs.context(t.Context()), in)
	require.NoError(t, err)
	start := clk.Now()
	want := []orphan.GroupReport{
		{RoleGroup: retired, InLedger: true, Stage: orphan.StageGrace, Since: start, Deadline: start.Add(time.Minute),
			Actions: marked(retired)},
		{RoleGroup: stray, InLedger: false, Stage: orphan.StageGrace, Since: start, Deadline: start.Add(time.Minute),
			Actions: marked(stray)},
	}
	if diff := cmp.Diff(want, res.Groups); diff != "" {
		t.Fatalf("first pass (-want +got):\n%s", diff)
	}
	require.Equal(t, time.Minute, res.RequeueAfter)

	clk.Step(time.Minute)
	res, err = cleaner.Clean(logs.context(t.Context()), in)
	require.NoError(t, err)
	now := clk.Now()
	retiredReport := res.Groups[0]
	require.Equal(t, orphan.StageScalingDown, retiredReport.Stage)
	require.Equal(t, now, retiredReport.Since)
	require.Equal(t, now.Add(orphan.DefaultDrainTimeout), retiredReport.Deadline)
	require.Equal(t, []orphan.Action{{Type: orphan.ActionScaledDown, RoleGroup: retired, Object: stsRef(retired)}}, retiredReport.Actions)
	strayReport := res.Groups[1]
	require.Equal(t, orphan.StageDeletingObjects, strayReport.Stage, "a group at zero replicas goes straight to its deletions")
	require.Zero(t, strayReport.Since)
	require.Equal(t, "PodDisruptionBudget", strayReport.Actions[0].Object.Kind)

	// The rest of the teardown: stages only move forward, and a drain
	// reports its window.
	stages := map[v1alpha1.RoleGroupRef][]orphan.Stage{retired: {orphan.StageScalingDown}}
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		res, err := cleaner.Clean(logs.context(t.Context()), in)
		if err != nil {
			return "", false, err
		}
		in.Ledger = res.Prune(in.Ledger)
		for _, g := range res.Groups {
			if s := stages[g.RoleGroup]; len(s) == 0 || s[len(s)-1] != g.Stage {
				stages[g.RoleGroup] = append(s, g.Stage)
			}
			if g.Stage == orphan.StageDraining {
				require.Equal(t, now, g.Since)
				require.Equal(t, orphan.DefaultDrainTimeout, g.Remaining(clk.Now()))
			}
		}
		return fmt.Sprint(stages), len(res.Groups) == 0 && len(f.present(retired)) == 0 && len(f.present(stray)) == 0, nil
	}, 90*time.Second)
	require.NoError(t, err)
	got := slices.DeleteFunc(stages[retired], func(s orphan.Stage) bool { return s == orphan.StageDraining })
	require.Equal(t, []orphan.Stage{orphan.StageScalingDown, orphan.StageDeletingObjects, orphan.StageReclaimed}, got,
		"stages of %s (a drain may show between the first two): %v", retired.Group, stages[retired])
	require.Equal(t, []orphan.Stage{orphan.StageDeletingObjects}, stages[stray], "a live-only group leaves the report when nothing of it is left")

	require.Equal(t, []string{
		"marked for deletion StatefulSet",
		"marked for deletion ConfigMap",
		"scaled to zero StatefulSet",
		"deleted PodDisruptionBudget",
		"deleted StatefulSet",
		"deleted ConfigMap",
		"deleted Service",
		"deleted Service",
		"deleted Service",
		"role group reclaimed",
	}, logs.transitions(retired.Group), "every transition is logged, with its role group")
}
