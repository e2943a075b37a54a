package servertest

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/opkit-dev/opkit/apply"
)

func deployment(ns, name string, annotations map[string]string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "example.com/app:1"}}},
			},
		},
	}
}

func TestNextWaveWaitsForPodsReady(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	deploy := deployment(f.ns, "backend", nil)
	after := configMap(f.ns, "after-backend", nil, map[string]string{key(apply.AnnotationApplyOrder): "1"})

	res, err := f.r.Apply(t.Context(), &f.inv, []client.Object{after, deploy}, f.pass())
	require.NoError(t, err)
	require.False(t, res.Done)
	err = f.c.Get(t.Context(), client.ObjectKeyFromObject(after), &corev1.ConfigMap{})
	require.True(t, apierrors.IsNotFound(err), "wave 1 started before wave 0 was ready: %v", err)

	f.applyUntilReady(after, deploy)
	live := &appsv1.Deployment{}
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(deploy), live))
	require.Equal(t, int32(2), live.Status.ReadyReplicas, "ready before kwok's pods were Ready")
	require.NoError(t, f.c.Get(t.Context(), client.ObjectKeyFromObject(after), &corev1.ConfigMap{}))
}

func TestKindPriorityWithinWaveAndEvents(t *testing.T) {
	recorder := events.NewFakeRecorder(100)
	// One at a time, so that the events come in a fixed order.
	f := newFixture(t, "owner-a", apply.Options{Recorder: recorder, Concurrency: 1})
	objects := []client.Object{
		deployment(f.ns, "app", nil),
		configMap(f.ns, "config", nil, nil),
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "role"}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: f.ns, Name: "sa"}},
	}
	_, err := f.r.Apply(t.Context(), &f.inv, objects, f.pass())
	require.NoError(t, err)
	var got []string
	for len(recorder.Events) > 0 {
		e := <-recorder.Events
		got = append(got, strings.Fields(e)[len(strings.Fields(e))-1])
	}
	want := []string{f.ns + "/role", f.ns + "/config", f.ns + "/sa", f.ns + "/app"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("creation order (-want +got):\n%s", diff)
	}
}

func TestJobIsInProgressUntilComplete(t *testing.T) {
	f := newFixture(t, "owner-a", apply.Options{})
	job := newJob(f.ns, "migrate")
	after := configMap(f.ns, "after-job", nil, map[string]string{key(apply.AnnotationApplyOrder): "1"})
	f.applyUntilReady(job, after)
	live := jobStatus(t, f, job)
	require.NotNil(t, live.Status.CompletionTime, "wave moved on before the Job completed")
}

func jobStatus(t *testing.T, f *fixture, job client.Object) *batchJob {
	t.Helper()
	live := &batchJob{}
	require.NoError(t, f.c.Get(context.Background(), client.ObjectKeyFromObject(job), live))
	return live
}
