package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/api/inventory"
	"github.com/opkit-dev/opkit/apply"
	"github.com/opkit-dev/opkit/testkit"
)

// setWidgetStatus writes the status of a live widget.
func setWidgetStatus(t *testing.T, f *fixture, w *unstructured.Unstructured, status map[string]any) {
	t.Helper()
	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		live := &unstructured.Unstructured{}
		live.SetGroupVersionKind(w.GroupVersionKind())
		if err := f.c.Get(ctx, client.ObjectKeyFromObject(w), live); err != nil {
			return false, false, client.IgnoreNotFound(err)
		}
		live.Object["status"] = status
		err := f.c.Status().Update(ctx, live)
		return true, err == nil, client.IgnoreNotFound(err)
	}, time.Minute)
	require.NoError(t, err)
}

func readyCondition(status string, observedGeneration int64) map[string]any {
	return map[string]any{"conditions": []any{map[string]any{
		"type": "Ready", "status": status, "reason": "Test", "message": "",
		"lastTransitionTime": metav1.Now().UTC().Format(time.RFC3339), "observedGeneration": observedGeneration,
	}}}
}

// An object that was ready and that the pass did not write stays ready
// when it turns unready (a rollout someone else started): later waves are
// not blocked again.
func TestReadyIsNotDowngradedWithoutAWrite(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	group := f.ns + ".ready.opkit.dev"
	crd := widgetCRD(group)
	w := widget(group, f.ns, "w", map[string]string{key(apply.AnnotationStatusHint): "has-ready-condition"})

	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (apply.Result, bool, error) {
		res, err := f.r.Apply(ctx, &f.inv, []client.Object{crd, w}, f.pass())
		return res, err == nil && f.find(schemaGK(group, "Widget"), f.ns, "w") != nil && f.find(schemaGK(group, "Widget"), f.ns, "w").EffectivePhase() != inventory.PhaseScheduledForApplication, err
	}, time.Minute)
	require.NoError(t, err)
	setWidgetStatus(t, f, w, readyCondition("True", 1))
	f.applyUntilReady(crd, w)

	setWidgetStatus(t, f, w, readyCondition("False", 1))
	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{crd, w}, f.pass())
	require.NoError(t, err)
	require.True(t, res.Done, "an unready object that was not written re-blocked the set")
	it := f.find(schemaGK(group, "Widget"), f.ns, "w")
	require.Equal(t, inventory.PhaseReady, it.EffectivePhase())
	require.Equal(t, "InProgress", it.EffectiveStatus(), "the observed status must still say what is seen")
	f.deleteUntilDone()
}

// Types that record the observed generation only on their Ready condition
// count as observed through it.
func TestObservedGenerationFallsBackToTheReadyCondition(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	group := f.ns + ".gen.opkit.dev"
	crd := widgetCRD(group)
	w := widget(group, f.ns, "w", map[string]string{key(apply.AnnotationStatusHint): "has-observed-generation"})

	_, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (bool, bool, error) {
		_, err := f.r.Apply(ctx, &f.inv, []client.Object{crd, w}, f.pass())
		it := f.find(schemaGK(group, "Widget"), f.ns, "w")
		return false, err == nil && it != nil && it.Generation > 0, err
	}, time.Minute)
	require.NoError(t, err)
	setWidgetStatus(t, f, w, readyCondition("True", f.find(schemaGK(group, "Widget"), f.ns, "w").Generation))
	f.applyUntilReady(crd, w)
	f.deleteUntilDone()
}

// A set holding an APIService and instances of the kind it serves is not
// refused for the unknown kind: the APIService is created and the
// instances wait for it.
func TestInstancesOfAnAPIServiceOfTheSetWait(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	group := f.ns + ".agg.opkit.dev"
	svc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": "v1." + group},
		"spec": map[string]any{
			"group": group, "version": "v1", "groupPriorityMinimum": int64(1000), "versionPriority": int64(15),
			"insecureSkipTLSVerify": true,
			"service":               map[string]any{"namespace": f.ns, "name": "no-backend"},
		},
	}}
	gadget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": "g", "namespace": f.ns},
	}}

	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{svc, gadget}, f.pass())
	require.NoError(t, err)
	require.False(t, res.Done)
	got := actions(res)
	require.Equal(t, apply.ActionCreated, got["APIService.apiregistration.k8s.io v1."+group])
	require.Equal(t, apply.ActionWaiting, got["Gadget."+group+" "+f.ns+"/g"])
	f.deleteUntilDone()
}
