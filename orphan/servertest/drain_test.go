package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/orphan"
	"github.com/opkit-dev/opkit/testkit"
)

func TestStuckPodHitsTheDrainTimeout(t *testing.T) {
	f := newFixture(t, nil)
	f.applyGroup(retired, groupOptions{replicas: 1})
	f.waitReady(retired, 1)
	pod := &corev1.Pod{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKey{Namespace: f.ns, Name: f.scope(retired).ResourceName() + "-0"}, pod))
	hold := []byte(`{"metadata":{"finalizers":["test.opkit.dev/hold"]}}`)
	require.NoError(t, f.c.Patch(t.Context(), pod, client.RawPatch(types.MergePatchType, hold)))
	t.Cleanup(func() {
		_ = f.c.Patch(context.Background(), pod, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`)))
	})

	clk := newFakeClock()
	cleaner, reg := newCleaner(t, f, orphan.Options{Clock: clk})
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
	_, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, int32(0), *f.statefulSet(retired).Spec.Replicas)

	// The pod is deleted but cannot go: the group waits, however often it runs.
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		if err := f.c.Get(ctx, client.ObjectKeyFromObject(pod), pod); err != nil {
			return "", false, err
		}
		return "terminating", pod.DeletionTimestamp != nil, nil
	}, 30*time.Second)
	require.NoError(t, err)
	for range 5 {
		res, err := cleaner.Clean(testkit.Context(t), in)
		require.NoError(t, err)
		require.Equal(t, []v1alpha1.RoleGroupRef{retired}, res.Pending())
		require.Equal(t, orphan.StageDraining, res.Groups[0].Stage)
		require.Equal(t, orphan.DefaultDrainTimeout, res.Groups[0].Remaining(clk.Now()))
		require.LessOrEqual(t, res.RequeueAfter, orphan.DefaultDrainPollInterval)
	}
	require.Contains(t, f.present(retired), "statefulset", "no deletion while the drain may still finish")
	require.Equal(t, int32(1), f.statefulSet(retired).Status.Replicas)

	clk.Step(orphan.DefaultDrainTimeout)
	res, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, orphan.StageDeletingObjects, res.Groups[0].Stage)
	require.Equal(t, "PodDisruptionBudget", res.Groups[0].Actions[0].Object.Kind)
	res, err = cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, orphan.ActionDeletedAfterDrainTimeout, res.Groups[0].Actions[0].Type, "the event-worthy deletion is told apart")
	require.Equal(t, "StatefulSet", res.Groups[0].Actions[0].Object.Kind)

	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed, "the rest of the group is reclaimed after the timeout")
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(fmt.Sprintf(`
# HELP opkit_orphan_drain_timeouts_total StatefulSets of removed role groups deleted with pods still terminating after the drain timeout.
# TYPE opkit_orphan_drain_timeouts_total counter
opkit_orphan_drain_timeouts_total{cluster="demo",kind="SampleCluster",namespace=%q} 1
`, f.ns)), orphan.MetricDrainTimeouts))
}

// A status the StatefulSet controller wrote for an older generation says
// nothing about the pods of the current one. Here the controller cannot
// write the status at all while it runs and then removes the pods: the
// status keeps its zero replicas of before the scale-down, and the drain
// must not read it as done.
func TestStaleStatusIsNotADrain(t *testing.T) {
	f := newFixture(t, nil)
	thaw := f.freezeStatefulSetStatus()
	f.applyGroup(retired, groupOptions{replicas: 2})
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) ([]string, bool, error) {
		running := f.runningPods(retired)
		return running, len(running) == 2, nil
	}, 60*time.Second)
	require.NoError(t, err, "the pods run although their StatefulSet's status is never written")
	sts := f.statefulSet(retired)
	require.Equal(t, appsv1.StatefulSetStatus{}, sts.Status, "the status is frozen")

	cleaner, _ := newCleaner(t, f, orphan.Options{})
	in := orphan.Input{Owner: f.cluster, Ledger: ledgerOf(retired)}
	res, err := cleaner.Clean(testkit.Context(t), in)
	require.NoError(t, err)
	require.Equal(t, orphan.StageScalingDown, res.Groups[0].Stage)

	// However often the pass runs, before and after the pods are gone, the
	// status was not written for the scaled-down generation: no deletion.
	passes := 0
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) ([]string, bool, error) {
		res, err := cleaner.Clean(testkit.Context(t), in)
		if err != nil {
			return nil, false, err
		}
		passes++
		require.Equal(t, orphan.StageDraining, res.Groups[0].Stage, "pass %d", passes)
		require.Empty(t, res.Groups[0].Actions)
		left := f.pods(retired)
		return left, len(left) == 0 && passes >= 3, nil
	}, 60*time.Second)
	require.NoError(t, err)
	require.Contains(t, f.present(retired), "pdb", "nothing is deleted on a stale status")

	thaw()
	// The controller retries its status write with a growing backoff; a
	// touch of the object makes it look again at once.
	_, err = testkit.WaitFor(t.Context(), func(ctx context.Context) (string, bool, error) {
		touch := fmt.Appendf(nil, `{"metadata":{"annotations":{"test.opkit.dev/touched":%q}}}`, time.Now().Format(time.RFC3339Nano))
		if err := f.c.Patch(ctx, sts, client.RawPatch(types.MergePatchType, touch)); err != nil {
			return "", false, err
		}
		st := sts.Status
		return fmt.Sprintf("generation %d, observed %d, replicas %d", sts.Generation, st.ObservedGeneration, st.Replicas),
			st.ObservedGeneration >= sts.Generation && st.Replicas == 0, nil
	}, 60*time.Second)
	require.NoError(t, err)
	_, reclaimed := drive(t, f, func() *orphan.Cleaner { return cleaner }, in, retired)
	require.True(t, reclaimed, "a current status lets the teardown go on")
}

// runningPods returns the group's pods that run and are not being deleted.
func (f *fixture) runningPods(ref v1alpha1.RoleGroupRef) []string {
	f.t.Helper()
	var list corev1.PodList
	require.NoError(f.t, f.c.List(f.t.Context(), &list, client.InNamespace(f.ns), client.MatchingLabels(f.scope(ref).SelectorLabels())))
	var out []string
	for _, p := range list.Items {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
			out = append(out, p.Name)
		}
	}
	return out
}

// freezeStatefulSetStatus makes the API server refuse every write to the
// status of the namespace's StatefulSets, through a validating admission
// policy, until the returned function is called. Both wait until the API
// server applies the change, probed with dry-run writes.
func (f *fixture) freezeStatefulSetStatus() (thaw func()) {
	f.t.Helper()
	ctx := f.t.Context()
	name := "freeze-sts-status-" + f.ns
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
			MatchConstraints: &admissionregistrationv1.MatchResources{
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: f.ns}},
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update},
						Rule: admissionregistrationv1.Rule{
							APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Resources: []string{"statefulsets/status"},
						},
					},
				}},
			},
			Validations: []admissionregistrationv1.Validation{{Expression: "false", Message: "status frozen by the test"}},
		},
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
	require.NoError(f.t, f.c.Create(ctx, policy))
	require.NoError(f.t, f.c.Create(ctx, binding))
	f.t.Cleanup(func() {
		_ = f.c.Delete(context.Background(), binding)
		_ = f.c.Delete(context.Background(), policy)
	})

	probe := &appsv1.StatefulSet{
		ObjectMeta: meta(f.ns, "status-probe", map[string]string{"probe": "status"}),
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"probe": "status"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"probe": "status"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.invalid/probe:1"}}},
			},
		},
	}
	require.NoError(f.t, f.c.Create(ctx, probe))
	frozen := func(want bool) {
		f.t.Helper()
		_, err := testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
			patch := fmt.Appendf(nil, `{"status":{"collisionCount":%d}}`, time.Now().UnixNano()%1000+1)
			err := f.c.Status().Patch(ctx, probe, client.RawPatch(types.MergePatchType, patch), client.DryRunAll)
			refused := err != nil && strings.Contains(err.Error(), "status frozen by the test")
			return fmt.Sprint(err), refused == want, nil
		}, 30*time.Second)
		require.NoError(f.t, err, "status writes refused: want %v", want)
	}
	frozen(true)
	return func() {
		f.t.Helper()
		require.NoError(f.t, f.c.Delete(ctx, binding))
		frozen(false)
	}
}
