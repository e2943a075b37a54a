package shardgate_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	commonsv1alpha1 "github.com/opkit-dev/opkit/api/commons/v1alpha1"
	"github.com/opkit-dev/opkit/reconciler/internal/shardgate"
)

const (
	owner  = commonsv1alpha1.LabelShardPrefix + "ring"
	drain  = commonsv1alpha1.LabelShardDrainPrefix + "ring"
	bucket = commonsv1alpha1.LabelShardBucketPrefix + "ring"
)

func withLabels(l map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: l}}
}

// The objects of a resource take its owner labels, never its drain
// request, and keep their own.
func TestFollow(t *testing.T) {
	for _, tc := range []struct {
		name          string
		resource, obj map[string]string
		want          map[string]string
	}{
		{"no owner", map[string]string{"app": "a"}, map[string]string{"k": "v"}, map[string]string{"k": "v"}},
		{"an owner", map[string]string{owner: "op-1", drain: "op-2", "app": "a"}, nil, map[string]string{owner: "op-1"}},
		{"a former owner", map[string]string{owner: "op-2"}, map[string]string{owner: "op-1", "k": "v"}, map[string]string{owner: "op-2", "k": "v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := withLabels(tc.obj)
			shardgate.Follow(shardgate.OwnerLabels(withLabels(tc.resource)), []client.Object{obj})
			if diff := cmp.Diff(tc.want, obj.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}

// A plan sees the objects with the live resource's owner, whatever the
// user's file says.
func TestTakeOwner(t *testing.T) {
	for _, tc := range []struct {
		name          string
		planned, live map[string]string
		want          map[string]string
	}{
		{"from the live resource", map[string]string{"k": "v"}, map[string]string{owner: "op-1"}, map[string]string{"k": "v", owner: "op-1"}},
		{"not from the file", map[string]string{owner: "old"}, map[string]string{owner: "op-1"}, map[string]string{owner: "op-1"}},
		{"none when the resource is new", map[string]string{owner: "old", bucket: "3", "k": "v"}, nil, map[string]string{"k": "v"}},
		{"the bucket too", map[string]string{bucket: "3"}, map[string]string{owner: "op-1", bucket: "9", drain: "op-2"}, map[string]string{owner: "op-1", bucket: "9"}},
		{"a bucket without an owner", nil, map[string]string{bucket: "9"}, map[string]string{bucket: "9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			planned := withLabels(tc.planned)
			shardgate.TakeOwner(planned, withLabels(tc.live))
			if diff := cmp.Diff(tc.want, planned.Labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
		})
	}
}

// Narrow keeps each kind's own selector and adds the share's.
func TestNarrow(t *testing.T) {
	ours := labels.SelectorFromSet(labels.Set{"managed-by": "op"})
	cm, secret := &corev1.ConfigMap{}, &corev1.Secret{}
	byObject := map[client.Object]cache.ByObject{cm: {Label: ours}, secret: {}}
	shardgate.Narrow(byObject, labels.SelectorFromSet(labels.Set{owner: "op-1"}))
	for obj, want := range map[client.Object]string{cm: "managed-by=op," + owner + "=op-1", secret: owner + "=op-1"} {
		if got := byObject[obj].Label.String(); got != want {
			t.Errorf("%T: selector %q, want %q", obj, got, want)
		}
	}
}

// Pod templates take the bucket label beside their own labels; the
// objects' own metadata and objects without pod templates are left alone.
func TestTagPods(t *testing.T) {
	const key = bucket
	sts := &appsv1.StatefulSet{}
	sts.Spec.Template.Labels = map[string]string{"app": "a"}
	deploy, ds, rs, job := &appsv1.Deployment{}, &appsv1.DaemonSet{}, &appsv1.ReplicaSet{}, &batchv1.Job{}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "u"}}}},
	}}
	other := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	cm := withLabels(map[string]string{"k": "v"})
	if err := shardgate.TagPods(map[string]string{key: "7"}, []client.Object{sts, deploy, ds, rs, job, u, other, cm}); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ got, want map[string]string }{
		"statefulset": {sts.Spec.Template.Labels, map[string]string{"app": "a", key: "7"}},
		"deployment":  {deploy.Spec.Template.Labels, map[string]string{key: "7"}},
		"daemonset":   {ds.Spec.Template.Labels, map[string]string{key: "7"}},
		"replicaset":  {rs.Spec.Template.Labels, map[string]string{key: "7"}},
		"job":         {job.Spec.Template.Labels, map[string]string{key: "7"}},
		"own labels":  {sts.Labels, nil},
		"configmap":   {cm.Labels, map[string]string{"k": "v"}},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s labels (-want +got):\n%s", name, diff)
		}
	}
	got, _, _ := unstructured.NestedStringMap(u.Object, "spec", "template", "metadata", "labels")
	if diff := cmp.Diff(map[string]string{"app": "u", key: "7"}, got); diff != "" {
		t.Errorf("unstructured deployment labels (-want +got):\n%s", diff)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(other.Object, "spec"); found {
		t.Errorf("a ConfigMap got a pod template: %v", other.Object)
	}

	broken := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "spec": map[string]any{"template": "nope"}}}
	broken.SetName("web")
	if err := shardgate.TagPods(map[string]string{key: "7"}, []client.Object{broken}); err == nil {
		t.Error("a StatefulSet whose template is a string was labelled without an error")
	}
}
