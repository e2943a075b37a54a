package controlplane_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/opkit-dev/opkit/testkit"
	"github.com/opkit-dev/opkit/testkit/controlplane"
)

// start runs a control plane for one test and stops it at cleanup.
func start(t *testing.T, opts controlplane.Options) *controlplane.ControlPlane {
	t.Helper()
	env := &testkit.Env{Options: opts}
	cp := env.Require(t)
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping the control plane: %v", err)
		}
	})
	return cp
}

func statefulSet(ns string, replicas int32) *appsv1.StatefulSet {
	labels := map[string]string{"app": "web"}
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web"},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            ptr.To(replicas),
			Selector:            &metav1.LabelSelector{MatchLabels: labels},
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "web", Image: "example.invalid/web:1"}},
				},
			},
		},
	}
}

// stsStatus observes a StatefulSet's replica counts.
func stsStatus(c client.Client, key client.ObjectKey, done func(appsv1.StatefulSetStatus) bool) testkit.Condition[appsv1.StatefulSetStatus] {
	return func(ctx context.Context) (appsv1.StatefulSetStatus, bool, error) {
		var sts appsv1.StatefulSet
		if err := c.Get(ctx, key, &sts); err != nil {
			return appsv1.StatefulSetStatus{}, false, err
		}
		return sts.Status, done(sts.Status), nil
	}
}

func TestControllersRunStatefulSetsAndGarbageCollection(t *testing.T) {
	cp := start(t, controlplane.Options{Controllers: true})
	ctx := t.Context()
	c := cp.Client
	ns := testkit.Namespace(t, c)
	require.True(t, cp.Controllers)

	var nodes corev1.NodeList
	require.NoError(t, c.List(ctx, &nodes, client.MatchingLabels{controlplane.NodeLabel: "kwok"}))
	require.Len(t, nodes.Items, controlplane.DefaultNodes)

	sts := statefulSet(ns, 3)
	require.NoError(t, c.Create(ctx, sts))
	key := client.ObjectKeyFromObject(sts)

	_, err := testkit.WaitFor(ctx, stsStatus(c, key, func(s appsv1.StatefulSetStatus) bool {
		return s.ReadyReplicas == 3
	}), 60*time.Second)
	require.NoError(t, err, "StatefulSet should reach 3 ready replicas")

	var pods corev1.PodList
	require.NoError(t, c.List(ctx, &pods, client.InNamespace(ns)))
	for _, p := range pods.Items {
		require.NotEmpty(t, p.Spec.NodeName, "pod %s should be scheduled", p.Name)
		require.Equal(t, corev1.PodRunning, p.Status.Phase, "pod %s phase", p.Name)
	}

	// Scale to zero: the pods drain and status.replicas reaches 0.
	require.NoError(t, c.Get(ctx, key, sts))
	sts.Spec.Replicas = ptr.To[int32](0)
	require.NoError(t, c.Update(ctx, sts))
	_, err = testkit.WaitFor(ctx, stsStatus(c, key, func(s appsv1.StatefulSetStatus) bool {
		return s.Replicas == 0
	}), 60*time.Second)
	require.NoError(t, err, "StatefulSet should drain to 0 replicas")

	// A ConfigMap owned by the StatefulSet is garbage-collected after it.
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-config"}}
	require.NoError(t, controllerutil.SetControllerReference(sts, cm, c.Scheme()))
	require.NoError(t, c.Create(ctx, cm))
	require.NoError(t, c.Delete(ctx, sts, client.PropagationPolicy(metav1.DeletePropagationBackground)))
	_, err = testkit.WaitFor(ctx, func(ctx context.Context) (string, bool, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(cm), &corev1.ConfigMap{})
		if apierrors.IsNotFound(err) {
			return "gone", true, nil
		}
		return "present", false, err
	}, 60*time.Second)
	require.NoError(t, err, "owned ConfigMap should be garbage-collected")

	// Every node's Lease is renewed, so the node lifecycle controller never
	// takes the nodes for dead (and marks every pod not ready) once its
	// grace period has passed.
	first := map[string]time.Time{}
	_, err = testkit.WaitFor(ctx, func(ctx context.Context) (map[string]time.Time, bool, error) {
		renewed := map[string]time.Time{}
		for _, n := range nodes.Items {
			lease := &coordinationv1.Lease{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: corev1.NamespaceNodeLease, Name: n.Name}, lease); err != nil {
				return renewed, false, client.IgnoreNotFound(err)
			}
			if lease.Spec.RenewTime == nil {
				return renewed, false, nil
			}
			renewed[n.Name] = lease.Spec.RenewTime.Time
			if _, seen := first[n.Name]; !seen {
				first[n.Name] = lease.Spec.RenewTime.Time
			}
		}
		for name, at := range renewed {
			if !at.After(first[name]) {
				return renewed, false, nil
			}
		}
		return renewed, len(renewed) == len(nodes.Items), nil
	}, 45*time.Second)
	require.NoError(t, err, "every node's Lease should be renewed")
}

func TestWithoutControllersNothingReconciles(t *testing.T) {
	cp := start(t, controlplane.Options{})
	ctx := t.Context()
	c := cp.Client
	ns := testkit.Namespace(t, c)
	require.False(t, cp.Controllers)

	var nodes corev1.NodeList
	require.NoError(t, c.List(ctx, &nodes))
	require.Empty(t, nodes.Items, "no nodes without controllers")

	sts := statefulSet(ns, 3)
	require.NoError(t, c.Create(ctx, sts))
	// With controllers the same StatefulSet has pods in well under a second;
	// give a plain API server a generous window and expect none.
	_, err := testkit.WaitFor(ctx, func(ctx context.Context) (int, bool, error) {
		var pods corev1.PodList
		if err := c.List(ctx, &pods, client.InNamespace(ns)); err != nil {
			return 0, false, err
		}
		return len(pods.Items), len(pods.Items) > 0, nil
	}, 3*time.Second)
	var timeout *testkit.TimeoutError
	require.ErrorAs(t, err, &timeout, "no pod should ever be created")
	require.Equal(t, 0, timeout.Last)
}

func TestMissingAssetsSayWhatToRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name        string
		opts        controlplane.Options
		wantMissing []string
	}{
		{"api server", controlplane.Options{AssetsDir: dir}, []string{"etcd", "kube-apiserver"}},
		{"controllers", controlplane.Options{AssetsDir: dir, Controllers: true}, []string{
			"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := controlplane.Start(t.Context(), tt.opts)
			var ae *controlplane.AssetsError
			require.True(t, errors.As(err, &ae), "want *AssetsError, got %v", err)
			if diff := cmp.Diff(tt.wantMissing, ae.Missing); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
			require.Contains(t, err.Error(), "make k8s-assets")
			require.Contains(t, err.Error(), dir)
		})
	}
}

func TestAssetsDirHonoursOverride(t *testing.T) {
	t.Setenv(controlplane.AssetsEnv, "/somewhere/else")
	got, err := controlplane.AssetsDir()
	require.NoError(t, err)
	require.Equal(t, "/somewhere/else", got)

	t.Setenv(controlplane.AssetsEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	got, err = controlplane.AssetsDir()
	require.NoError(t, err)
	require.Equal(t, "/cache/opkit/k8s/"+controlplane.AssetsVersion, got)
}
