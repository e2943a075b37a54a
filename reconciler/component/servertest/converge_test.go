package servertest_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/component/servertest/shop"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/apicount"
)

// A shop renders a Helm chart and a kustomization; the reconciler applies
// both, in their waves, and reports Ready once the Deployment is.
func TestHelmChartAndKustomizationReachReady(t *testing.T) {
	cp := env.Require(t)
	ns := testkit.Namespace(t, cp.Client)
	counter := apicount.New()
	op := startOperator(t, cp, ns, setup{counter: counter})
	newShop(t, cp.Client, ns, "front", shop.ShopSpec{Message: "welcome", Replicas: 2})
	key := client.ObjectKey{Namespace: ns, Name: "front"}

	s := waitState(t, cp.Client, key, componentv1alpha1.StateReady, componentv1alpha1.ReasonReady, 2*time.Minute)

	if s.Status.Revision != 1 || s.Status.AppliedGeneration != s.Generation || s.Status.LastAppliedAt == nil ||
		s.Status.ProcessingSince != nil || s.Status.ProcessingDigest == "" || s.Status.LastProcessingDigest != s.Status.ProcessingDigest {
		t.Errorf("status after the first cycle: %+v", s.Status.Status)
	}
	var got []string
	for _, it := range s.Status.Inventory.Items {
		got = append(got, it.Key().String())
	}
	want := []string{
		"ConfigMap " + ns + "/front-installed",
		"ConfigMap " + ns + "/front-routes",
		"ConfigMap " + ns + "/front-settings",
		"Deployment.apps " + ns + "/front-web",
		"Service " + ns + "/front-api",
	}
	if diff := cmp.Diff(want, sorted(got)); diff != "" {
		t.Errorf("inventory (-want +got):\n%s", diff)
	}

	settings := &corev1.ConfigMap{}
	get(t, cp.Client, ns, "front-settings", settings)
	if diff := cmp.Diff(map[string]string{"message": "welcome", "revision": "1", "upgrade": "false", "color": "none"}, settings.Data); diff != "" {
		t.Errorf("settings rendered by the chart (-want +got):\n%s", diff)
	}
	svc := &corev1.Service{}
	get(t, cp.Client, ns, "front-api", svc)
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort.IntValue() != 8080 {
		t.Errorf("service rendered by the kustomization, patch applied: %+v", svc.Spec.Ports)
	}
	web := &appsv1.Deployment{}
	get(t, cp.Client, ns, "front-web", web)
	if web.Status.ReadyReplicas != 2 {
		t.Errorf("the shop is Ready while its Deployment has %d ready replicas", web.Status.ReadyReplicas)
	}
	if !contains(s.Finalizers, op.name+"/finalizer") {
		t.Errorf("finalizers %v lack %s/finalizer", s.Finalizers, op.name)
	}

	// Every dependent object was written once, by its create: no pass
	// worked from a copy of the shop older than the last status write.
	writes := counter.Snapshot()
	for resource, n := range map[string]int{"configmaps": 3, "services": 1, "deployments.apps": 1} {
		if c, u, p := writes[apicount.Key{Verb: "create", Resource: resource}], writes[apicount.Key{Verb: "update", Resource: resource}],
			writes[apicount.Key{Verb: "patch", Resource: resource}]; c != n || u+p != 0 {
			t.Errorf("%s: %d creates, %d updates, %d patches; want %d creates only\n%s", resource, c, u, p, n, writes)
		}
	}

	if got := gauge(t, "opkit_component_state", map[string]string{"controller": op.name, "namespace": ns, "name": "front", "state": "Ready"}); got != 1 {
		t.Errorf("state gauge for Ready = %v, want 1", got)
	}
	if got := gauge(t, "opkit_component_dependents", map[string]string{"controller": op.name, "namespace": ns, "name": "front"}); got != 5 {
		t.Errorf("dependents gauge = %v, want 5", got)
	}

	// One event per state change: processing, ready. The first pass
	// renders and applies: no state of its own records that the shop was
	// seen.
	var reasons []string
	for _, e := range events(t, cp.Client, ns, "front") {
		reasons = append(reasons, e.Reason)
	}
	if diff := cmp.Diff([]string{"Processing", "Ready"}, sorted(reasons)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
