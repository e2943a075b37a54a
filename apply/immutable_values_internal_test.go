package apply

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// claim is a claim template of size, as a desired object states it.
func claim(name, size string) corev1.PersistentVolumeClaim {
	return corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}},
		},
	}
}

// served is a claim template as the API server returns it: volumeMode,
// kind and a status filled in.
func served(c corev1.PersistentVolumeClaim) corev1.PersistentVolumeClaim {
	c.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
	c.Spec.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
	c.Status.Phase = corev1.ClaimPending
	return c
}

func stsWith(service string, claims ...corev1.PersistentVolumeClaim) *appsv1.StatefulSet {
	return &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{
		ServiceName:          service,
		Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": service}},
		VolumeClaimTemplates: claims,
	}}
}

// A preserved StatefulSet field is reported with the values that differ
// in it, each at its own path; what only the server filled in never is.
func TestPreservedStatefulSetValues(t *testing.T) {
	tests := []struct {
		name       string
		live, want *appsv1.StatefulSet
		wantFields []string
		wantValues []IgnoredValue
	}{
		{
			name: "unchanged, as the server returns it",
			live: stsWith("db", served(claim("data", "1Gi"))), want: stsWith("db", claim("data", "1Gi")),
		},
		{
			name: "claim resized",
			live: stsWith("db", served(claim("data", "1Gi"))), want: stsWith("db", claim("data", "5Gi")),
			wantFields: []string{"spec.volumeClaimTemplates"},
			wantValues: []IgnoredValue{{Path: "spec.volumeClaimTemplates[name=data].spec.resources.requests.storage", Live: "1Gi", Desired: "5Gi"}},
		},
		{
			name: "claim added beside one kept",
			live: stsWith("db", served(claim("data", "1Gi"))), want: stsWith("db", claim("data", "1Gi"), claim("logs", "2Gi")),
			wantFields: []string{"spec.volumeClaimTemplates"},
			wantValues: []IgnoredValue{{Path: "spec.volumeClaimTemplates[name=logs]",
				Desired: `{"metadata":{"name":"logs"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}}}}`}},
		},
		{
			name: "every claim removed",
			live: stsWith("db", served(claim("data", "1Gi"))), want: stsWith("db"),
			wantFields: []string{"spec.volumeClaimTemplates"},
			wantValues: []IgnoredValue{{Path: "spec.volumeClaimTemplates",
				Live: `[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]`}},
		},
		{
			name: "service name and selector",
			live: stsWith("db"), want: stsWith("store"),
			wantFields: []string{"spec.selector", "spec.serviceName"},
			wantValues: []IgnoredValue{
				{Path: "spec.selector.matchLabels.app", Live: "db", Desired: "store"},
				{Path: "spec.serviceName", Live: "db", Desired: "store"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields, values := preserveStatefulSet(tt.live, tt.want).report()
			if diff := cmp.Diff(tt.wantFields, fields); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantValues, values); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// In a Job's template only what the desired template states counts: the
// labels the server injected are no difference, a changed image is.
func TestPreservedJobTemplateValuesAreTheStatedOnes(t *testing.T) {
	job := func(image string, labels map[string]string) *batchv1.Job {
		return &batchv1.Job{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: image}}},
		}}}
	}
	live := job("example.com/job:1", map[string]string{"batch.kubernetes.io/job-name": "j", "controller-uid": "x"})
	fields, values := preserveJob(live, job("example.com/job:2", nil)).report()
	if diff := cmp.Diff([]string{"spec.template"}, fields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	want := []IgnoredValue{{Path: "spec.template.spec.containers[name=main].image", Live: "example.com/job:1", Desired: "example.com/job:2"}}
	if diff := cmp.Diff(want, values); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// Values are bounded in number and in length.
func TestIgnoredValuesAreBounded(t *testing.T) {
	live, want := map[string]string{}, map[string]string{}
	for i := range 2 * maxIgnoredValues {
		live[fmt.Sprintf("k%02d", i)], want[fmt.Sprintf("k%02d", i)] = "a", "b"
	}
	_, values := preservedFields{}.add("spec.labels", live, want).add("spec.note", "x", strings.Repeat("y", 1000)).report()
	if len(values) != maxIgnoredValues {
		t.Fatalf("%d values, want %d", len(values), maxIgnoredValues)
	}
	if diff := cmp.Diff(IgnoredValue{Path: "spec.labels.k00", Live: "a", Desired: "b"}, values[0]); diff != "" {
		t.Errorf("first value (-want +got):\n%s", diff)
	}
	_, values = preservedFields{}.add("spec.note", "x", strings.Repeat("y", 1000)).report()
	if got := len(values[0].Desired); got > maxValueLen+len("…") {
		t.Errorf("a value of %d bytes, want at most %d", got, maxValueLen+len("…"))
	}
}
