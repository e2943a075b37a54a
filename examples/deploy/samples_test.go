package deploy_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	componentv1alpha1 "github.com/opkit-dev/opkit/api/component/v1alpha1"
	"github.com/opkit-dev/opkit/examples/internal/manifest"
	kafkav1alpha1 "github.com/opkit-dev/opkit/examples/kafka/api/v1alpha1"
	websitev1alpha1 "github.com/opkit-dev/opkit/examples/website/api/v1alpha1"
	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// createSamples creates the objects of the example's sample files in ns.
func createSamples(t *testing.T, c client.Client, ex example, ns string) {
	t.Helper()
	for _, f := range ex.files {
		objs, err := manifest.Objects(ex.samples, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range objs {
			u.SetNamespace(ns)
			if err := c.Create(t.Context(), u); err != nil {
				t.Fatalf("creating %s %s: %v", u.GetKind(), u.GetName(), err)
			}
		}
	}
}

// volumes creates n persistent volumes for the sample's claims, deleted at
// cleanup.
func volumes(t *testing.T, cp *controlplane.ControlPlane, n int) {
	t.Helper()
	for i := range n {
		pv := &corev1.PersistentVolume{}
		pv.GenerateName = "deploy-test-"
		pv.Spec.Capacity = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("10Gi")}
		pv.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
		pv.Spec.HostPath = &corev1.HostPathVolumeSource{Path: "/var/deploy-test/" + string(rune('a'+i))}
		if err := cp.Client.Create(t.Context(), pv); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cp.Client.Delete(context.Background(), pv) })
	}
}

// kafkaAvailable waits for the sample KafkaCluster to be Available with
// its bootstrap servers published.
func kafkaAvailable(t *testing.T, c client.Reader, ns string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) ([]metav1.Condition, bool, error) {
		k := &kafkav1alpha1.KafkaCluster{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "events"}, k); err != nil {
			return nil, false, err
		}
		for _, cond := range k.Status.Conditions {
			if cond.Type == commonsv1alpha1.ConditionAvailable && cond.Status == metav1.ConditionTrue && cond.ObservedGeneration == k.Generation {
				return k.Status.Conditions, k.Status.BootstrapServers != "", nil
			}
		}
		return k.Status.Conditions, false, nil
	}, 3*time.Minute); err != nil {
		t.Fatalf("the KafkaCluster sample did not become Available: %v", err)
	}
}

// websiteReady waits for the sample Website to be Ready at revision 1.
func websiteReady(t *testing.T, c client.Reader, ns string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) (componentv1alpha1.Status, bool, error) {
		w := &websitev1alpha1.Website{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "home"}, w); err != nil {
			return componentv1alpha1.Status{}, false, err
		}
		st := w.Status.Status
		return st, st.State == componentv1alpha1.StateReady && st.Revision == 1 && st.ObservedGeneration == w.Generation, nil
	}, 2*time.Minute); err != nil {
		t.Fatalf("the Website sample did not become Ready: %v", err)
	}
}

// misspellRole adds a role the KafkaCluster's product does not have, which
// the operator reports with a Warning event.
func misspellRole(t *testing.T, c client.Client, ns string) {
	t.Helper()
	k := &kafkav1alpha1.KafkaCluster{}
	if err := c.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: "events"}, k); err != nil {
		t.Fatal(err)
	}
	// A merge patch, which the operator's own writes of the status cannot
	// make conflict.
	orig := k.DeepCopy()
	k.Spec.Roles["brokr"] = commonsv1alpha1.RoleSpec{RoleGroups: map[string]commonsv1alpha1.RoleGroupSpec{"default": {}}}
	if err := c.Patch(t.Context(), k, client.MergeFrom(orig)); err != nil {
		t.Fatal(err)
	}
}

// waitEvent waits for an event on an object of kind in ns.
func waitEvent(t *testing.T, c client.Reader, ns, kind string) {
	t.Helper()
	if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) ([]string, bool, error) {
		events := &corev1.EventList{}
		if err := c.List(ctx, events, client.InNamespace(ns)); err != nil {
			return nil, false, err
		}
		var seen []string
		for _, e := range events.Items {
			seen = append(seen, e.InvolvedObject.Kind+" "+e.Reason)
			if e.InvolvedObject.Kind == kind {
				return seen, true, nil
			}
		}
		return seen, false, nil
	}, time.Minute); err != nil {
		t.Errorf("no event on the %s: %v", kind, err)
	}
}
