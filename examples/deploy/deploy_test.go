package deploy_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// fieldOwner is the field manager of the test's server-side applies, as
// kubectl's is kubectl.
const fieldOwner = "deploy-test"

// config/default, applied by server-side apply, runs the operator: the
// Deployment becomes Available with both replicas Running and Ready on
// kwok nodes (which run no container, so the image is never pulled: any
// name does), the budget counts them healthy and allows one disruption,
// and the metrics Service has both as ready endpoints.
func TestDefaultDeploys(t *testing.T) {
	cp := env.Require(t)
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			objs := deploy(t, cp, ex)
			want, c := objs.deployment(t)
			if img := "opkit-examples/" + ex.name + "-operator:dev"; c.Image != img {
				t.Errorf("the manager's image is %q, want %q (config/manager's images)", c.Image, img)
			}
			key := client.ObjectKeyFromObject(want)
			ctx := t.Context()

			d, err := testkit.WaitFor(ctx, func(ctx context.Context) (appsv1.DeploymentStatus, bool, error) {
				d := &appsv1.Deployment{}
				if err := cp.Client.Get(ctx, key, d); err != nil {
					return appsv1.DeploymentStatus{}, false, err
				}
				s := d.Status
				return s, s.ObservedGeneration == d.Generation && s.UpdatedReplicas == 2 && s.AvailableReplicas == 2 &&
					conditionTrue(s.Conditions, appsv1.DeploymentAvailable), nil
			}, 2*time.Minute)
			if err != nil {
				t.Fatalf("the Deployment did not become Available: %v (%s)", err, warnings(cp, key.Namespace))
			}
			t.Logf("Deployment %s: %d of %d replicas available", key.Name, d.AvailableReplicas, d.Replicas)

			pods := &corev1.PodList{}
			if err := cp.Client.List(ctx, pods, client.InNamespace(key.Namespace), client.MatchingLabels(want.Spec.Selector.MatchLabels)); err != nil {
				t.Fatal(err)
			}
			var running int
			for _, p := range pods.Items {
				node := &corev1.Node{}
				if err := cp.Client.Get(ctx, client.ObjectKey{Name: p.Spec.NodeName}, node); err != nil {
					t.Fatalf("pod %s: node %q: %v", p.Name, p.Spec.NodeName, err)
				}
				if p.Status.Phase == corev1.PodRunning && podReady(p) && node.Labels[controlplane.NodeLabel] == "kwok" && p.Spec.Containers[0].Image == c.Image {
					running++
				}
			}
			if running != 2 {
				t.Errorf("%d of %d pods are Running and Ready on a kwok node with image %s, want 2", running, len(pods.Items), c.Image)
			}

			pdb := &policyv1.PodDisruptionBudget{}
			objs.one(t, "PodDisruptionBudget", pdb)
			if _, err := testkit.WaitFor(ctx, func(ctx context.Context) (policyv1.PodDisruptionBudgetStatus, bool, error) {
				got := &policyv1.PodDisruptionBudget{}
				err := cp.Client.Get(ctx, client.ObjectKeyFromObject(pdb), got)
				s := got.Status
				return s, err == nil && s.ObservedGeneration == got.Generation && s.CurrentHealthy == 2 && s.DisruptionsAllowed == 1, err
			}, time.Minute); err != nil {
				t.Errorf("the budget does not count both replicas healthy, allowing one disruption: %v", err)
			}

			svc := &corev1.Service{}
			objs.one(t, "Service", svc)
			if _, err := testkit.WaitFor(ctx, func(ctx context.Context) ([]string, bool, error) {
				return readyEndpoints(ctx, cp.Client, svc)
			}, time.Minute); err != nil {
				t.Errorf("the metrics Service does not have both replicas as ready endpoints: %v", err)
			}
		})
	}
}

// deploy applies the example's config/default as kubectl apply
// --server-side -k does, in kustomize's order, and waits for its CRDs to
// be established. Applying it again changes nothing, so every test that
// needs the operator deployed calls it.
func deploy(t *testing.T, cp *controlplane.ControlPlane, ex example) manifests {
	t.Helper()
	return deployConfig(t, cp, ex, "default")
}

// deployConfig applies the example's config directory dir as deploy
// applies config/default.
func deployConfig(t *testing.T, cp *controlplane.ControlPlane, ex example, dir string) manifests {
	t.Helper()
	objs := build(t, ex.config(dir))
	for _, u := range objs {
		if err := cp.Client.Apply(t.Context(), client.ApplyConfigurationFromUnstructured(u.DeepCopy()), client.FieldOwner(fieldOwner), client.ForceOwnership); err != nil {
			t.Fatalf("applying %s %s: %v", u.GetKind(), u.GetName(), err)
		}
	}
	for _, u := range objs.ofKind("CustomResourceDefinition") {
		if _, err := testkit.WaitFor(t.Context(), func(ctx context.Context) ([]apiextensionsv1.CustomResourceDefinitionCondition, bool, error) {
			crd := &apiextensionsv1.CustomResourceDefinition{}
			if err := cp.Client.Get(ctx, client.ObjectKey{Name: u.GetName()}, crd); err != nil {
				return nil, false, err
			}
			for _, c := range crd.Status.Conditions {
				if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
					return crd.Status.Conditions, true, nil
				}
			}
			return crd.Status.Conditions, false, nil
		}, time.Minute); err != nil {
			t.Fatalf("CRD %s is not established: %v", u.GetName(), err)
		}
	}
	return objs
}

// readyEndpoints lists the ready endpoints of svc's EndpointSlices as
// address:port of its one port, done when there are two.
func readyEndpoints(ctx context.Context, c client.Reader, svc *corev1.Service) ([]string, bool, error) {
	slices := &discoveryv1.EndpointSliceList{}
	if err := c.List(ctx, slices, client.InNamespace(svc.Namespace), client.MatchingLabels{discoveryv1.LabelServiceName: svc.Name}); err != nil {
		return nil, false, err
	}
	var ready []string
	for _, s := range slices.Items {
		for _, p := range s.Ports {
			if p.Name == nil || *p.Name != svc.Spec.Ports[0].Name || p.Port == nil {
				continue
			}
			for _, e := range s.Endpoints {
				if e.Conditions.Ready != nil && *e.Conditions.Ready {
					ready = append(ready, fmt.Sprintf("%v:%d", e.Addresses, *p.Port))
				}
			}
		}
	}
	return ready, len(ready) == 2, nil
}

// warnings returns the Warning events in ns: a pod the restricted
// profile refuses shows there as its ReplicaSet's FailedCreate.
func warnings(cp *controlplane.ControlPlane, ns string) string {
	events := &corev1.EventList{}
	if err := cp.Client.List(context.Background(), events, client.InNamespace(ns)); err != nil {
		return err.Error()
	}
	var out []string
	for _, e := range events.Items {
		if e.Type == corev1.EventTypeWarning {
			out = append(out, fmt.Sprintf("%s %s: %s: %s", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message))
		}
	}
	if len(out) == 0 {
		return "no warnings"
	}
	return "warnings: " + strings.Join(out, "; ")
}

func conditionTrue(conds []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) bool {
	for _, c := range conds {
		if c.Type == t {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func podReady(p corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
